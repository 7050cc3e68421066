import Foundation
import GeoPhotoCore

/// Writes gazetteer files, from the shipped GeoNames CSV or from a GeoNames dump a user
/// downloaded.
public enum GazetteerBuilder {
  public struct InputError: Error, CustomStringConvertible {
    public var description: String
  }

  /// The gazetteer file for `places`.
  public static func build(_ places: [Place]) throws(InputError) -> [UInt8] {
    var strings: [UInt8] = []
    var offsets: [String: UInt32] = [:]
    func intern(_ s: String) -> UInt32 {
      if let o = offsets[s] { return o }
      let o = UInt32(strings.count)
      strings += Array(s.utf8.filter { $0 != 0 }) + [0]
      offsets[s] = o
      return o
    }
    var admin1: [String: UInt16] = [:]
    var admin2: [String: UInt16] = [:]
    var countries: [String: UInt16] = [:]
    var a1List: [UInt32] = []
    var a2List: [UInt32] = []
    var ccList: [String] = []
    var records: [UInt8] = []
    records.reserveCapacity(places.count * Gazetteer.recordSize)
    func append32(_ v: UInt32, _ out: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
    func append16(_ v: UInt16, _ out: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
    for p in places {
      let a1: UInt16
      if let i = admin1[p.admin1] {
        a1 = i
      } else {
        guard a1List.count < 65_535 else { throw InputError(description: "more than 65535 first-level divisions") }
        a1 = UInt16(a1List.count)
        admin1[p.admin1] = a1
        a1List.append(intern(p.admin1))
      }
      let a2: UInt16
      if let i = admin2[p.admin2] {
        a2 = i
      } else {
        guard a2List.count < 65_535 else { throw InputError(description: "more than 65535 second-level divisions") }
        a2 = UInt16(a2List.count)
        admin2[p.admin2] = a2
        a2List.append(intern(p.admin2))
      }
      let code = String(p.countryCode.uppercased().prefix(2)).padding(toLength: 2, withPad: " ", startingAt: 0)
      let cc: UInt16
      if let i = countries[code] {
        cc = i
      } else {
        cc = UInt16(ccList.count)
        countries[code] = cc
        ccList.append(code)
      }
      append32(UInt32(bitPattern: Int32((p.coordinate.latitude * 1e6).rounded())), &records)
      append32(UInt32(bitPattern: Int32((p.coordinate.longitude * 1e6).rounded())), &records)
      append32(intern(p.name), &records)
      append32(UInt32(clamping: max(0, p.population)), &records)
      append16(a1, &records)
      append16(a2, &records)
      append16(cc, &records)
    }
    var tables: [UInt8] = []
    for o in a1List { append32(o, &tables) }
    for o in a2List { append32(o, &tables) }
    for c in ccList { tables += Array(c.utf8.prefix(2)) }
    // The identity: FNV-1a over everything after the header.
    var hash: UInt32 = 2_166_136_261
    for byte in records + tables + strings {
      hash ^= UInt32(byte)
      hash = hash &* 16_777_619
    }
    var out = Gazetteer.magic
    for v in [places.count, a1List.count, a2List.count, ccList.count, strings.count] { append32(UInt32(v), &out) }
    append32(hash, &out)
    return out + records + tables + strings
  }

  /// Rows of `lat,lon,name,admin1,admin2,cc` (the GeoNames cities1000 extract geophoto ships),
  /// RFC 4180 quoting, CRLF or LF.
  public static func placesFromCSV(_ text: String) throws(InputError) -> [Place] {
    var places: [Place] = []
    for (number, line) in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).enumerated() {
      let fields = csvFields(line)
      if number == 0 && fields.first == "lat" { continue }
      guard fields.count == 6, let lat = Double(fields[0]), let lon = Double(fields[1]),
        let c = Coordinate(validatingLatitude: lat, longitude: lon)
      else { throw InputError(description: "line \(number + 1): expected lat,lon,name,admin1,admin2,cc") }
      places.append(Place(name: fields[2], admin1: fields[3], admin2: fields[4], countryCode: fields[5], coordinate: c))
    }
    return places
  }

  static func csvFields(_ line: Substring) -> [String] {
    var fields: [String] = []
    var field = ""
    var quoted = false
    var iterator = line.makeIterator()
    while let ch = iterator.next() {
      if quoted {
        if ch == "\"" {
          quoted = false
        } else {
          field.append(ch)
        }
      } else if ch == "\"" {
        if !field.isEmpty { field.append(ch) }
        quoted = true
      } else if ch == "," {
        fields.append(field)
        field = ""
      } else {
        field.append(ch)
      }
    }
    fields.append(field)
    return fields
  }

  /// A GeoNames dump: `cities500.txt` (tab-separated, 19 columns) with the names of its
  /// divisions from `admin1CodesASCII.txt` and, optionally, `admin2Codes.txt`. Sections of
  /// cities (PPLX, outside Australia) and historical places (PPLH) are left out.
  public static func placesFromGeoNames(cities: String, admin1: String, admin2: String?) throws(InputError) -> [Place] {
    func codes(_ text: String, name: String) throws(InputError) -> [String: String] {
      var map: [String: String] = [:]
      for (n, line) in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).enumerated() {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard f.count >= 3 else { throw InputError(description: "\(name):\(n + 1): expected code, name, ASCII name") }
        map[String(f[0])] = String(f[2].isEmpty ? f[1] : f[2])
      }
      return map
    }
    let a1 = try codes(admin1, name: "admin1 codes")
    let a2 = try admin2.map { text throws(InputError) in try codes(text, name: "admin2 codes") } ?? [:]
    var places: [Place] = []
    for (n, line) in cities.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).enumerated() {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard f.count >= 15, let lat = Double(f[4]), let lon = Double(f[5]),
        let c = Coordinate(validatingLatitude: lat, longitude: lon)
      else { throw InputError(description: "cities:\(n + 1): not a GeoNames row (19 tab-separated columns)") }
      let code = f[7]
      if code == "PPLH" || (code == "PPLX" && f[8] != "AU") { continue }
      let name = f[2].isEmpty ? f[1] : f[2]
      places.append(
        Place(
          name: name, admin1: a1["\(f[8]).\(f[10])"] ?? "", admin2: a2["\(f[8]).\(f[10]).\(f[11])"] ?? "",
          countryCode: f[8], coordinate: c, population: Int(f[14]) ?? 0))
    }
    return places
  }
}
