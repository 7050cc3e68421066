import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoExif

/// exiftool 12.57 reading what the writer wrote: the oracle of the sidecar tests.
enum Exiftool {
  static let path = "/usr/bin/exiftool"
  static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

  /// `-n -T -GPSLatitude -GPSLongitude -GPSAltitude -XMP:GPSDateTime`: the position exiftool
  /// reads (altitude signed by its Ref; `-` for a missing value).
  static func position(_ file: URL) throws -> [String] {
    let run = try ToolRun(
      path, ["-n", "-T", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-XMP:GPSDateTime", file.path])
    return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "\t")
  }

  /// Every tag `-j -G1 -a -n` gives, each value as JSON text, without the file system's and
  /// exiftool's own.
  static func tags(_ file: URL) throws -> [String: String] {
    let run = try ToolRun(path, ["-j", "-G1", "-a", "-n", file.path])
    let list = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
    var tags: [String: String] = [:]
    for (key, value) in list?.first ?? [:] {
      if key == "SourceFile" || key.hasPrefix("System:") || key.hasPrefix("ExifTool:") { continue }
      let data = try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
      tags[key] = String(decoding: data, as: UTF8.self)
    }
    return tags
  }

  /// The tags a GPS write replaces: the owned XMP-exif ones and exiftool's composites of them.
  static func isGPS(_ key: String) -> Bool {
    key.hasPrefix("Composite:GPS")
      || [
        "XMP-exif:GPSLatitude", "XMP-exif:GPSLongitude", "XMP-exif:GPSLatitudeRef", "XMP-exif:GPSLongitudeRef",
        "XMP-exif:GPSAltitude", "XMP-exif:GPSAltitudeRef", "XMP-exif:GPSDateTime",
      ].contains(key)
  }
}

/// A folder of its own under the temporary directory, removed by `remove()`.
struct Scratch {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("gp-xmp-\(UUID().uuidString)")

  init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  @discardableResult
  func write(_ name: String, _ text: String) throws -> URL {
    let file = file(name)
    try Data(text.utf8).write(to: file)
    return file
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// `2024-05-02T08:41:10Z` as seconds since 1970, by Foundation's own parser.
func instant(_ text: String) -> Double {
  ISO8601DateFormatter().date(from: text)?.timeIntervalSince1970 ?? .nan
}

/// The sidecar with every GPS property a position write owns taken out (elements and
/// attributes, any prefix), for comparing what else a merge kept.
func withoutGPS(_ text: String) -> String {
  let owned = "GPS(?:Latitude|Longitude|LatitudeRef|LongitudeRef|Altitude|AltitudeRef|TimeStamp)"
  var out = text
  for pattern in [
    "\\s*<([A-Za-z0-9_-]+):\(owned)>[^<]*</\\1:\(owned)>", "\\s+[A-Za-z0-9_-]+:\(owned)=\"[^\"]*\"",
    "\\s+[A-Za-z0-9_-]+:\(owned)='[^']*'",
  ] {
    let regex = try? NSRegularExpression(pattern: pattern)
    out =
      regex?.stringByReplacingMatches(
        in: out, range: NSRange(out.startIndex..., in: out), withTemplate: "") ?? out
  }
  return out
}

@Suite struct GPSCoordinateTextTests {
  /// Worked by hand: minutes = fraction × 60, eight decimals.
  @Test func knownValues() {
    let cases: [(Double, GPSCoordinateText.Axis, String)] = [
      (0, .latitude, "0,0.00000000N"), (0, .longitude, "0,0.00000000E"),
      (90, .latitude, "90,0.00000000N"), (-90, .latitude, "90,0.00000000S"),
      (-180, .longitude, "180,0.00000000W"), (180, .longitude, "180,0.00000000E"),
      // 0.641873 × 60 = 38.51238
      (43.641873, .latitude, "43,38.51238000N"),
      // 0.71102 × 60 = 42.6612; 0.14251 × 60 = 8.5506
      (38.71102, .latitude, "38,42.66120000N"), (-9.14251, .longitude, "9,8.55060000W"),
      // 0.5 × 60 = 30; 0.0000001 × 60 = 0.000006
      (-33.5, .latitude, "33,30.00000000S"), (151.0000001, .longitude, "151,0.00000600E"),
      // 0.99999999999 × 60 = 59.9999999994′, 60.00000000 at eight decimals: carried.
      (10.99999999999, .latitude, "11,0.00000000N"), (-10.99999999999, .latitude, "11,0.00000000S"),
      (179.99999999999, .longitude, "180,0.00000000E"),
      // 0.9999999999 × 60 = 59.999999994′: no carry.
      (10.9999999999, .latitude, "10,59.99999999N"),
      // A value that rounds to zero has no sign.
      (-1e-12, .latitude, "0,0.00000000N"), (-1e-12, .longitude, "0,0.00000000E"),
      (95, .longitude, "95,0.00000000E"),
    ]
    for (value, axis, text) in cases {
      #expect(GPSCoordinateText.text(value, axis: axis) == text, "\(value)")
    }
  }

  @Test func refusesWhatIsNotACoordinate() {
    for value in [Double.nan, .infinity, -.infinity, 90.0000001, -91] {
      #expect(GPSCoordinateText.text(value, axis: .latitude) == nil, "\(value)")
    }
    for value in [Double.nan, .infinity, 180.0000001, -200] {
      #expect(GPSCoordinateText.text(value, axis: .longitude) == nil, "\(value)")
    }
  }

  /// Read back by the test's own arithmetic (degrees + minutes / 60), every value is within
  /// 1e-7°, and minutes are always below 60.
  @Test func staysWithinATenMillionthOfADegree() throws {
    var state: UInt64 = 0x1234_5678_9ABC_DEF1
    for _ in 0..<20_000 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      let value = (Double(state >> 11) / Double(1 << 53)) * 360 - 180
      let text = try #require(GPSCoordinateText.text(value, axis: .longitude))
      let parts = text.dropLast().split(separator: ",")
      let degrees = try #require(Double(parts[0]))
      let minutes = try #require(Double(parts[1]))
      #expect(minutes < 60)
      let back = (degrees + minutes / 60) * (text.hasSuffix("W") ? -1 : 1)
      #expect(abs(back - value) <= 1e-7, "\(value) → \(text)")
    }
  }
}

@Suite struct SidecarNamesTests {
  @Test func pairsFullNameBeforeBaseName() {
    #expect(SidecarNames.keys(forPhotoNamed: "IMG_0042.CR2") == ["img_0042.cr2", "img_0042"])
    #expect(SidecarNames.key(ofSidecarNamed: "IMG_0042.CR2.XMP") == "img_0042.cr2")
    #expect(SidecarNames.key(ofSidecarNamed: "IMG_0042.xmp") == "img_0042")
    #expect(SidecarNames.key(ofSidecarNamed: "IMG_0042.jpg") == nil)
    var listing = SidecarListing<Int>()
    let added = listing.add(fileNamed: "img_0042.XMP", 1)
    let notASidecar = listing.add(fileNamed: "IMG_0042.CR2", 9)
    #expect(added && !notASidecar)
    #expect(listing.sidecar(forPhotoNamed: "IMG_0042.CR2")?.value == 1)
    listing.add(fileNamed: "IMG_0042.cr2.xmp", 2)
    #expect(listing.sidecar(forPhotoNamed: "IMG_0042.CR2")?.value == 2)
    #expect(listing.sidecar(forPhotoNamed: "IMG_0042.JPG")?.value == 1)
    #expect(listing.sidecar(forPhotoNamed: "IMG_0043.JPG") == nil)
  }

  /// Two sidecars differing only in case: the one sorting first, whatever the listing order.
  @Test func aCaseClashIsSettledByName() {
    for order in [["b.xmp", "B.xmp"], ["B.xmp", "b.xmp"]] {
      var listing = SidecarListing<String>()
      for name in order { listing.add(fileNamed: name, name) }
      #expect(listing.sidecar(forPhotoNamed: "b.jpg")?.value == "B.xmp")
    }
  }

  @Test func namesNewSidecars() {
    #expect(SidecarNames.newName(forPhotoNamed: "IMG_0042.CR2", style: .full) == "IMG_0042.CR2.xmp")
    #expect(SidecarNames.newName(forPhotoNamed: "IMG_0042.CR2", style: .base) == "IMG_0042.xmp")
    #expect(SidecarNames.newName(forPhotoNamed: "a.b.jpg", style: .base) == "a.b.xmp")
  }
}

@Suite struct XMPSidecarWriterTests {
  static let lisbon = XMPPosition(
    coordinate: Coordinate(latitude: 38.71102, longitude: -9.14251), altitude: 61,
    instant: instant("2024-05-02T08:41:10Z"))

  /// Positions with the exiftool text expected for each: both hemispheres, near ±180, with and
  /// without altitude, below sea level.
  static let positions: [(XMPPosition, [String])] = [
    (lisbon, ["38.71102", "-9.14251", "61", "2024:05:02 08:41:10Z"]),
    (
      XMPPosition(
        coordinate: Coordinate(latitude: -33.8567844, longitude: 151.2152967),
        instant: instant("2023-12-31T23:59:59Z")),
      ["-33.8567844", "151.2152967", "-", "2023:12:31 23:59:59Z"]
    ),
    (
      XMPPosition(
        coordinate: Coordinate(latitude: 64.1466, longitude: -179.9999999), altitude: -3.25,
        instant: instant("2000-02-29T00:00:00Z")),
      ["64.1466", "-179.9999999", "-3.25", "2000:02:29 00:00:00Z"]
    ),
    (
      XMPPosition(coordinate: Coordinate(latitude: -0.5, longitude: 179.99999995), altitude: 0),
      ["-0.5", "179.99999995", "0", "-"]
    ),
    (
      XMPPosition(
        coordinate: Coordinate(latitude: 89.9999999, longitude: 0.0000001), altitude: 8848.8604,
        instant: instant("1969-07-20T20:17:40Z")),
      ["89.9999999", "1e-07", "8848.860", "1969:07:20 20:17:40Z"]
    ),
  ]

  /// exiftool's numbers within 1e-6° (altitude 1e-3 m), its date-time exactly.
  static func agree(_ found: [String], _ expected: [String]) -> Bool {
    guard found.count == 4 else { return false }
    for k in 0..<3 {
      if expected[k] == "-" || found[k] == "-" {
        guard expected[k] == found[k] else { return false }
        continue
      }
      guard let a = Double(found[k]), let b = Double(expected[k]) else { return false }
      guard abs(a - b) <= (k == 2 ? 1e-3 : 1e-6) else { return false }
    }
    return found[3] == expected[3]
  }

  @Test func aNewSidecarIsAPacketOfItsOwn() throws {
    let text = String(decoding: try XMPSidecarWriter.merge(existing: nil, position: Self.lisbon), as: UTF8.self)
    #expect(text.hasPrefix("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"))
    #expect(text.hasSuffix("<?xpacket end=\"w\"?>\n"))
    for part in [
      "x:xmptk=\"geophoto\"", "xmlns:exif=\"http://ns.adobe.com/exif/1.0/\"", "rdf:about=\"\"",
      "<exif:GPSLatitude>38,42.66120000N</exif:GPSLatitude>", "<exif:GPSLongitude>9,8.55060000W</exif:GPSLongitude>",
      "<exif:GPSAltitude>61000/1000</exif:GPSAltitude>", "<exif:GPSAltitudeRef>0</exif:GPSAltitudeRef>",
      "<exif:GPSTimeStamp>2024-05-02T08:41:10Z</exif:GPSTimeStamp>",
    ] {
      #expect(text.contains(part), "\(part)")
    }
    let below = XMPPosition(coordinate: Coordinate(latitude: 1, longitude: 1), altitude: -0.4996)
    let belowText = String(decoding: try XMPSidecarWriter.merge(existing: nil, position: below), as: UTF8.self)
    #expect(belowText.contains("<exif:GPSAltitude>500/1000</exif:GPSAltitude>"))
    #expect(belowText.contains("<exif:GPSAltitudeRef>1</exif:GPSAltitudeRef>"))
    #expect(!belowText.contains("GPSTimeStamp"))
  }

  /// New sidecars are not read back as they are written (merges are): the sync's reader must
  /// read every one as its position, over the whole range.
  @Test func theSyncReadsNewSidecarsAsTheirPositions() throws {
    var generator = SeededGenerator(seed: 0x786D_70)
    for k in 0..<5_000 {
      let coordinate = Coordinate(
        latitude: Double.random(in: -90...90, using: &generator),
        longitude: Double.random(in: -180...180, using: &generator))
      guard coordinate.isPlausiblePhotoLocation else { continue }
      let altitude = k % 3 == 0 ? nil : Double.random(in: -500...9_000, using: &generator)
      let position = XMPPosition(coordinate: coordinate, altitude: altitude, instant: k % 2 == 0 ? 1.7e9 : nil)
      let read = XMPReader.read(try XMPSidecarWriter.merge(existing: nil, position: position))
      let found = try #require(read?.coordinate, "\(coordinate)")
      #expect(abs(found.latitude - coordinate.latitude) <= 1e-7, "\(coordinate)")
      #expect(abs(found.longitude - coordinate.longitude) <= 1e-7, "\(coordinate)")
      #expect(
        abs((read?.altitude ?? .nan) - (altitude ?? .nan)) <= 0.0006 || (altitude == nil && read?.altitude == nil))
    }
  }

  @Test(.enabled(if: Exiftool.isInstalled, "needs exiftool"))
  func exiftoolReadsNewSidecars() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    for (k, (position, expected)) in Self.positions.enumerated() {
      let file = scratch.file("new\(k).xmp")
      try Data(try XMPSidecarWriter.merge(existing: nil, position: position)).write(to: file)
      let found = try Exiftool.position(file)
      #expect(Self.agree(found, expected), "\(found) vs \(expected)")
    }
  }

  @Test func refusesPositionsItCannotWrite() {
    let bad = [
      XMPPosition(coordinate: Coordinate(latitude: .nan, longitude: 0)),
      XMPPosition(coordinate: Coordinate(latitude: 91, longitude: 0)),
      XMPPosition(coordinate: Coordinate(latitude: 0, longitude: 0)),
      XMPPosition(coordinate: Coordinate(latitude: 1, longitude: 1), altitude: .infinity),
      XMPPosition(coordinate: Coordinate(latitude: 1, longitude: 1), instant: .nan),
      XMPPosition(coordinate: Coordinate(latitude: 1, longitude: 1), instant: 1e15),
    ]
    for position in bad {
      #expect(throws: XMPWriteError.self) { try XMPSidecarWriter.merge(existing: nil, position: position) }
    }
  }

  // MARK: Merging

  static let darktable = """
    <?xml version="1.0" encoding="UTF-8"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
        xmlns:exif="http://ns.adobe.com/exif/1.0/"
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:darktable="http://darktable.sf.net/"
        exif:GPSVersionID="2.2.0.0"
        exif:GPSLatitude="51,30.0000N"
        exif:GPSLongitude="0,7.5000W"
        exif:GPSAltitude="123/10"
        exif:GPSAltitudeRef="0"
        xmp:Rating="3"
        darktable:xmp_version="5">
       <darktable:history>
        <rdf:Seq>
         <rdf:li darktable:operation="exposure" darktable:enabled="1"/>
        </rdf:Seq>
       </darktable:history>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>

    """

  static let apple = """
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 6.0.0">
       <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
                xmlns:exif="http://ns.adobe.com/exif/1.0/"
                xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/">
             <exif:GPSLongitudeRef>W</exif:GPSLongitudeRef>
             <exif:GPSLongitude>122.31739166666667</exif:GPSLongitude>
             <exif:GPSHPositioningError>35</exif:GPSHPositioningError>
             <exif:GPSLatitudeRef>N</exif:GPSLatitudeRef>
             <exif:GPSLatitude>47.675403333333335</exif:GPSLatitude>
             <exif:GPSAltitudeRef>0</exif:GPSAltitudeRef>
             <exif:GPSAltitude>63.631790123456788</exif:GPSAltitude>
             <exif:GPSTimeStamp>2022-09-04T00:48:27Z</exif:GPSTimeStamp>
             <photoshop:DateCreated>2022-09-03T17:48:26-07:00</photoshop:DateCreated>
          </rdf:Description>
       </rdf:RDF>
    </x:xmpmeta>

    """

  /// exiftool sees the same tags before and after, but for the GPS ones, which are the new
  /// position's; and every byte but the GPS properties (and an `xmlns` for them) is kept.
  static func checkMerge(original: URL, merged: URL, position: XMPPosition, expected: [String]) throws {
    let before = try Exiftool.tags(original).filter { !Exiftool.isGPS($0.key) }
    let afterAll = try Exiftool.tags(merged)
    let after = afterAll.filter { !Exiftool.isGPS($0.key) }
    #expect(before == after, "\(original.lastPathComponent): \(before.count) tags before, \(after.count) after")
    for (key, value) in before where after[key] != value {
      Issue.record("\(original.lastPathComponent): \(key) was \(value), is \(after[key] ?? "gone")")
    }
    #expect(afterAll["XMP-exif:GPSLatitudeRef"] == nil && afterAll["XMP-exif:GPSLongitudeRef"] == nil)
    let found = try Exiftool.position(merged)
    #expect(agree(found, expected), "\(original.lastPathComponent): \(found) vs \(expected)")

    // Declarations of the exif namespace aside: the merge may add one.
    func others(_ url: URL) throws -> String {
      withoutGPS(String(decoding: try Data(contentsOf: url), as: UTF8.self)).replacingOccurrences(
        of: #"\s+xmlns:[A-Za-z0-9_-]+=(["'])http://ns.adobe.com/exif/1.0/\1"#, with: "", options: .regularExpression)
    }
    #expect(try others(original) == others(merged), "\(original.lastPathComponent): other bytes changed")
  }

  /// The corpora's sidecars whose merge is refused, and why (checked by hand: XMP2.xmp's
  /// xpacket holds a U+001A, which XML does not allow).
  static let refusedCorpusFiles: Set<String> = ["XMP2.xmp"]

  @Test(.enabled(if: Exiftool.isInstalled, "needs exiftool"), .enabled(if: Corpus.isAvailable, "needs the corpora"))
  func mergesIntoEveryCorpusSidecar() throws {
    let folders = ["photoprism-testdata", "exiftool-images"]
    var files: [URL] = []
    for folder in folders {
      let names = try FileManager.default.contentsOfDirectory(atPath: Corpus.url(folder).path)
      files += names.filter { $0.hasSuffix(".xmp") && (folder != "exiftool-images" || $0.hasPrefix("XMP")) }
        .sorted().map { Corpus.url(folder).appendingPathComponent($0) }
    }
    #expect(files.count >= 16)
    let scratch = try Scratch()
    defer { scratch.remove() }
    var refused: Set<String> = []
    for file in files {
      let photo = scratch.file("photo.jpg")
      try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: photo)
      let sidecar = scratch.file("photo.jpg.xmp")
      try? FileManager.default.removeItem(at: sidecar)
      let original = try Data(contentsOf: file)
      try original.write(to: sidecar)
      let outcome = try XMPSidecarFile.write(position: Self.lisbon, forPhoto: photo.path, overwrite: true)
      switch outcome {
      case .updated(let path):
        #expect(path == sidecar.path)
        try Self.checkMerge(original: file, merged: sidecar, position: Self.lisbon, expected: Self.positions[0].1)
      case .leftAlone(_, let reason):
        refused.insert(file.lastPathComponent)
        #expect(!reason.isEmpty)
        #expect(try Data(contentsOf: sidecar) == original, "\(file.lastPathComponent) was changed")
      case .created: Issue.record("\(file.lastPathComponent): a new sidecar was made beside the old one")
      }
      #expect(try Data(contentsOf: photo) == Data([0xFF, 0xD8, 0xFF, 0xD9]))
    }
    #expect(refused == Self.refusedCorpusFiles)
  }

  @Test(.enabled(if: Exiftool.isInstalled, "needs exiftool"))
  func mergesIntoDarktableAndAppleSidecars() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    for (name, text) in [("darktable.xmp", Self.darktable), ("apple.xmp", Self.apple)] {
      for (k, (position, expected)) in Self.positions.enumerated() {
        let original = try scratch.write(name, text)
        let merged = scratch.file("\(k)-\(name)")
        try Data(try XMPSidecarWriter.merge(existing: Array(text.utf8), position: position)).write(to: merged)
        try Self.checkMerge(original: original, merged: merged, position: position, expected: expected)
      }
    }
    // The darktable one keeps its attribute form; the Apple one its elements.
    let dt = String(
      decoding: try XMPSidecarWriter.merge(existing: Array(Self.darktable.utf8), position: Self.lisbon), as: UTF8.self)
    #expect(dt.contains("\n    exif:GPSLatitude=\"38,42.66120000N\"\n    exif:GPSLongitude=\"9,8.55060000W\""))
    #expect(dt.contains("exif:GPSVersionID=\"2.2.0.0\""))
    #expect(!dt.contains("51,30.0000N") && !dt.contains("123/10"))
    let ap = String(
      decoding: try XMPSidecarWriter.merge(existing: Array(Self.apple.utf8), position: Self.lisbon), as: UTF8.self)
    #expect(ap.contains("\n         <exif:GPSLatitude>38,42.66120000N</exif:GPSLatitude>\n"))
    #expect(!ap.contains("Ref>N<") && !ap.contains("Ref>W<") && ap.contains("<exif:GPSHPositioningError>35<"))
  }

  /// A prefix other than `exif` for the exif namespace is used as it is; an `exif` prefix bound
  /// to another namespace is left alone and a fresh prefix declared.
  @Test func resolvesPrefixesByNamespace() throws {
    let other = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
       <rdf:Description rdf:about="" xmlns:e='http://ns.adobe.com/exif/1.0/'>
        <e:GPSLatitude>1,0.0N</e:GPSLatitude>
        <e:FNumber>28/10</e:FNumber>
       </rdf:Description>
      </rdf:RDF></x:xmpmeta>
      """
    let merged = String(
      decoding: try XMPSidecarWriter.merge(existing: Array(other.utf8), position: Self.lisbon), as: UTF8.self)
    #expect(merged.contains("<e:GPSLatitude>38,42.66120000N</e:GPSLatitude>"))
    #expect(!merged.contains("1,0.0N") && !merged.contains("xmlns:exif"))
    #expect(merged.contains("<e:FNumber>28/10</e:FNumber>"))

    let clash = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
       <rdf:Description rdf:about="" xmlns:exif="http://example.com/not-exif/">
        <exif:Thing>kept</exif:Thing>
       </rdf:Description>
      </rdf:RDF></x:xmpmeta>
      """
    let fresh = String(
      decoding: try XMPSidecarWriter.merge(existing: Array(clash.utf8), position: Self.lisbon), as: UTF8.self)
    #expect(fresh.contains("xmlns:exif2=\"http://ns.adobe.com/exif/1.0/\""))
    #expect(fresh.contains("<exif2:GPSLatitude>38,42.66120000N</exif2:GPSLatitude>"))
    #expect(fresh.contains("<exif:Thing>kept</exif:Thing>"))
  }

  /// GPS in every top-level Description goes; a nested one (a structure's) stays; comments,
  /// CDATA and processing instructions that look like GPS are not touched.
  @Test func removesFromEveryTopLevelDescriptionOnly() throws {
    let text = """
      <?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?>
      <x:xmpmeta xmlns:x='adobe:ns:meta/'>
      <!-- <exif:GPSLatitude>9,0N</exif:GPSLatitude> -->
      <rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
       <rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>
        <dc:title><![CDATA[<exif:GPSLatitude>8,0N</exif:GPSLatitude>]]></dc:title>
       </rdf:Description>
       <rdf:Description rdf:about='' xmlns:exif='http://ns.adobe.com/exif/1.0/' exif:GPSLongitude='7,0W'>
        <exif:GPSLatitude>7,0N</exif:GPSLatitude>
        <exif:Flash rdf:parseType='Resource'><exif:GPSAltitude>5/1</exif:GPSAltitude></exif:Flash>
       </rdf:Description>
      </rdf:RDF>
      </x:xmpmeta>
      <?xpacket end='w'?>
      """
    let merged = String(
      decoding: try XMPSidecarWriter.merge(existing: Array(text.utf8), position: Self.lisbon), as: UTF8.self)
    #expect(merged.contains("<!-- <exif:GPSLatitude>9,0N</exif:GPSLatitude> -->"))
    #expect(merged.contains("<![CDATA[<exif:GPSLatitude>8,0N</exif:GPSLatitude>]]>"))
    #expect(!merged.contains("7,0W") && !merged.contains("7,0N"))
    #expect(
      merged.contains("<exif:Flash rdf:parseType='Resource'><exif:GPSAltitude>5/1</exif:GPSAltitude></exif:Flash>"))
    // Into the first Description, as elements, with the namespace declared there.
    #expect(
      merged.contains(
        "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/' "
          + "xmlns:exif=\"http://ns.adobe.com/exif/1.0/\">\n  <exif:GPSLatitude>38,42.66120000N</exif:GPSLatitude>"))
    #expect(merged.hasSuffix("<?xpacket end='w'?>"))
  }

  @Test func refusesWhatItCannotMergeInto() {
    let good = Array(Self.apple.utf8)
    let cases: [(String, [UInt8])] = [
      ("truncated", Array(good.prefix(good.count / 2))),
      ("DTD", Array(("<!DOCTYPE x [<!ENTITY a \"b\">]>" + Self.apple).utf8)),
      ("not XML", Array("hello, world".utf8)),
      (
        "no Description",
        Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='\(XMPTagScanner.rdfURI)'/></x:xmpmeta>".utf8)
      ),
      ("UTF-16", Array(Self.apple.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
      (
        "Latin-1",
        Array(Self.apple.replacingOccurrences(of: "XMP Core", with: "XMP C\u{F6}re").utf8).map {
          $0 == 0xC3 ? 0x20 : $0
        }
      ),
      // A GPS position before the first Description, which XMPReader would read first.
      (
        "shadowed",
        Array(Self.apple.replacingOccurrences(of: "x:xmptk=", with: "xmlns:p='p:' p:GPSLatitude='1,0N' x:xmptk=").utf8)
      ),
    ]
    for (name, bytes) in cases {
      #expect(throws: XMPWriteError.self, "\(name)") {
        try XMPSidecarWriter.merge(existing: bytes, position: Self.lisbon)
      }
    }
    #expect(throws: XMPWriteError.noDescription) {
      try XMPSidecarWriter.merge(existing: cases[3].1, position: Self.lisbon)
    }
  }

  @Test func tellsWhetherASidecarHoldsAPosition() {
    #expect(XMPSidecarWriter.holdsPosition(Array(Self.apple.utf8)))
    #expect(XMPSidecarWriter.holdsPosition(Array(Self.darktable.utf8)))
    let none = Self.apple.replacingOccurrences(of: "GPSLatitude>", with: "GPSLatitudeX>")
    #expect(!XMPSidecarWriter.holdsPosition(Array(none.utf8)))
  }

  // MARK: Files

  @Test func namesAndPairsSidecarFiles() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    try scratch.write("A.CR2", "raw")
    try scratch.write("B.CR2", "raw")
    try scratch.write("C.JPG", "jpeg")
    try scratch.write("D.JPG", "jpeg")
    try scratch.write("D.jpg.xmp", Self.apple.replacingOccurrences(of: "GPS", with: "NoGPS"))
    try scratch.write("D.XMP", Self.apple.replacingOccurrences(of: "GPS", with: "NoGPS"))
    try scratch.write("c.XMP", Self.apple.replacingOccurrences(of: "GPS", with: "NoGPS"))
    func write(_ name: String, _ style: SidecarNames.Style) throws -> XMPSidecarFile.Outcome {
      try XMPSidecarFile.write(position: Self.lisbon, forPhoto: scratch.file(name).path, naming: style)
    }
    #expect(try write("A.CR2", .full) == .created(scratch.file("A.CR2.xmp").path))
    #expect(try write("B.CR2", .base) == .created(scratch.file("B.xmp").path))
    #expect(try write("C.JPG", .full) == .updated(scratch.file("c.XMP").path))
    #expect(try write("D.JPG", .base) == .updated(scratch.file("D.jpg.xmp").path))
    #expect(try Data(contentsOf: scratch.file("A.CR2")) == Data("raw".utf8))
    // What is written, the sync's pairing reads back.
    #expect(XMPSidecarFile.existingSidecar(forPhoto: scratch.file("B.CR2").path) == scratch.file("B.xmp").path)
    let bytes = [UInt8](try Data(contentsOf: scratch.file("A.CR2.xmp")))
    #expect(XMPReader.read(bytes)?.coordinate == Coordinate(latitude: 38.71102, longitude: -9.14251))
  }

  @Test func aSidecarWithAPositionIsReplacedOnlyWhenAsked() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let photo = try scratch.write("p.jpg", "jpeg")
    let sidecar = try scratch.write("p.jpg.xmp", Self.darktable)
    let outcome = try XMPSidecarFile.write(position: Self.lisbon, forPhoto: photo.path)
    #expect(outcome == .leftAlone(sidecar.path, reason: "already holds a position"))
    #expect(try Data(contentsOf: sidecar) == Data(Self.darktable.utf8))
    #expect(
      try XMPSidecarFile.write(position: Self.lisbon, forPhoto: photo.path, overwrite: true) == .updated(sidecar.path))
    let read = XMPReader.read([UInt8](try Data(contentsOf: sidecar)))
    #expect(read?.coordinate == Coordinate(latitude: 38.71102, longitude: -9.14251))
    #expect(read?.altitude == 61)
  }

  @Test func aDamagedSidecarIsLeftAsItWas() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let photo = try scratch.write("p.jpg", "jpeg")
    let damaged = [
      String(Self.apple.prefix(300)), "<!DOCTYPE x>" + Self.apple, "not xml at all", "<a><b></a>",
    ]
    for text in damaged {
      let sidecar = try scratch.write("p.jpg.xmp", text.replacingOccurrences(of: "GPS", with: "Gps"))
      let before = try Data(contentsOf: sidecar)
      let outcome = try XMPSidecarFile.write(position: Self.lisbon, forPhoto: photo.path, overwrite: true)
      guard case .leftAlone(let path, let reason) = outcome else {
        Issue.record("\(text.prefix(20)): \(outcome)")
        continue
      }
      #expect(path == sidecar.path && reason.hasPrefix("the sidecar "))
      #expect(try Data(contentsOf: sidecar) == before)
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix(".") }
      #expect(leftovers.isEmpty)
    }
  }

  @Test func neverWritesThroughASymbolicLink() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let photo = try scratch.write("p.jpg", "jpeg")
    let elsewhere = try scratch.write("elsewhere.txt", "someone else's file")
    let link = scratch.file("p.jpg.xmp")
    // A link to a file (paired, as the sync pairs it) and a dangling one (where a new one goes).
    for target in [elsewhere.path, scratch.file("missing.xmp").path] {
      try? FileManager.default.removeItem(at: link)
      try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target)
      let outcome = try XMPSidecarFile.write(position: Self.lisbon, forPhoto: photo.path, overwrite: true)
      guard case .leftAlone(let path, let reason) = outcome else {
        Issue.record("\(target): \(outcome)")
        continue
      }
      #expect(path == link.path && reason.contains("symbolic link"))
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target)
      #expect(try Data(contentsOf: elsewhere) == Data("someone else's file".utf8))
      #expect(!FileManager.default.fileExists(atPath: scratch.file("missing.xmp").path))
    }
  }

  @Test func keepsPermissionBits() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let photo = try scratch.write("p.jpg", "jpeg")
    for mode in [0o600, 0o640, 0o664] {
      let sidecar = try scratch.write("p.jpg.xmp", Self.apple)
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: sidecar.path)
      #expect(
        try XMPSidecarFile.write(position: Self.lisbon, forPhoto: photo.path, overwrite: true) == .updated(sidecar.path)
      )
      let attributes = try FileManager.default.attributesOfItem(atPath: sidecar.path)
      #expect((attributes[.posixPermissions] as? Int) == mode)
    }
  }

  @Test func aMissingPhotoGetsNoSidecar() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let outcome = try XMPSidecarFile.write(position: Self.lisbon, forPhoto: scratch.file("gone.jpg").path)
    #expect(outcome == .leftAlone(scratch.file("gone.jpg").path, reason: "the photo is not there"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
  }

  // MARK: Fuzzing

  /// Byte mutations of every sidecar the tests know: each merge is refused or reads back as the
  /// position, and a merged one merges again.
  @Test func mutatedSidecarsNeverBreakTheMerge() throws {
    var seeds = [Self.darktable, Self.apple].map { Array($0.utf8) }
    if Corpus.isAvailable {
      for name in ["photoprism-testdata/photoshop.xmp", "photoprism-testdata/iphone_7.xmp", "exiftool-images/XMP6.xmp"]
      {
        seeds.append([UInt8](try Data(contentsOf: Corpus.url(name))))
      }
    }
    let alphabet = Array("<>/=\"' :?!-[]&;\nexif:GPSLatitudeDescription".utf8)
    var state: UInt64 = 0x0DDB_1A5E_5BAD_5EED
    func next(_ bound: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(max(1, bound)))
    }
    var merged = 0
    for round in 0..<3000 {
      var bytes = seeds[round % seeds.count]
      for _ in 0..<(1 + next(4)) {
        guard !bytes.isEmpty else { break }
        let at = next(bytes.count)
        switch next(4) {
        case 0: bytes[at] = alphabet[next(alphabet.count)]
        case 1: bytes.insert(alphabet[next(alphabet.count)], at: at)
        case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + next(40)))
        default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + next(60))], at: next(bytes.count))
        }
      }
      guard let out = try? XMPSidecarWriter.merge(existing: bytes, position: Self.lisbon) else { continue }
      merged += 1
      let read = XMPReader.read(out)?.coordinate
      #expect(read.map { abs($0.latitude - 38.71102) <= 1e-7 && abs($0.longitude + 9.14251) <= 1e-7 } == true)
      do {
        _ = try XMPSidecarWriter.merge(existing: out, position: Self.lisbon)
      } catch {
        Issue.record("a merged sidecar cannot be merged into again: \(error)\n\(String(decoding: out, as: UTF8.self))")
      }
    }
    // Most mutations still leave a sidecar that can be merged into.
    #expect(merged > 300)
  }

  /// The fuzz binary's `xmp-merge` target replays the corpora's sidecars and cuts of them.
  @Test(.enabled(if: Corpus.isAvailable, "needs the corpora"))
  func theFuzzTargetReplaysSidecars() throws {
    let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/geophoto-fuzz")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no geophoto-fuzz at \(binary.path)")
    let run = try ToolRun(
      binary.path, [Corpus.url("photoprism-testdata").path, Corpus.url("exiftool-images").path],
      environment: ["GEOPHOTO_FUZZ_TARGET": "xmp-merge"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("through 1 targets (xmp-merge)"))
  }
}
