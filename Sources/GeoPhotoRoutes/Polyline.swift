public import GeoPhotoCore

/// Google's encoded polyline format, as OSRM (precision 5) and Valhalla (precision 6) send
/// route geometry. Points are latitude, longitude.
public enum Polyline {
  public struct DecodeError: Error, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Decodes exactly: the running sums are integers, divided once per point.
  public static func decode(_ text: String, precision: Int = 5) throws(DecodeError) -> [Coordinate] {
    let scale = pow10(precision)
    var coordinates: [Coordinate] = []
    var lat = 0
    var lon = 0
    var index = text.utf8.startIndex
    let bytes = text.utf8
    func next() throws(DecodeError) -> Int {
      var result = 0
      var shift = 0
      while true {
        guard index < bytes.endIndex else {
          throw DecodeError(description: "the polyline ends in the middle of a value")
        }
        let c = Int(bytes[index]) - 63
        index = bytes.index(after: index)
        guard c >= 0 && c < 64 else { throw DecodeError(description: "the polyline has a character outside '?'…'~'") }
        guard shift < 60 else { throw DecodeError(description: "the polyline has a value that is too long") }
        result |= (c & 0x1F) << shift
        shift += 5
        if c < 0x20 { break }
      }
      return (result & 1) != 0 ? ~(result >> 1) : (result >> 1)
    }
    while index < bytes.endIndex {
      lat += try next()
      lon += try next()
      let c = Coordinate(latitude: Double(lat) / scale, longitude: Double(lon) / scale)
      guard abs(c.latitude) <= 90, abs(c.longitude) <= 180 else {
        throw DecodeError(description: "the polyline decodes out of range (wrong precision?)")
      }
      coordinates.append(c)
    }
    return coordinates
  }

  public static func encode(_ coordinates: [Coordinate], precision: Int = 5) -> String {
    let scale = pow10(precision)
    var out = ""
    var previous = (0, 0)
    // Round half away from zero, then take deltas between the rounded integers: no drift.
    func rounded(_ v: Double) -> Int { Int((v * scale).rounded(.toNearestOrAwayFromZero)) }
    func append(_ value: Int) {
      var e = value < 0 ? ~(value << 1) : (value << 1)
      while e >= 0x20 {
        out.unicodeScalars.append(Unicode.Scalar(UInt8((0x20 | (e & 0x1F)) + 63)))
        e >>= 5
      }
      out.unicodeScalars.append(Unicode.Scalar(UInt8(e + 63)))
    }
    for c in coordinates {
      let current = (rounded(c.latitude), rounded(c.longitude))
      append(current.0 - previous.0)
      append(current.1 - previous.1)
      previous = current
    }
    return out
  }

  private static func pow10(_ n: Int) -> Double {
    var v = 1.0
    for _ in 0..<n { v *= 10 }
    return v
  }
}
