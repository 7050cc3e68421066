import Foundation
import GeoPhotoCore
import Testing

@testable import GeoPhotoExif

/// Reads a corpus file through the container readers and libexif.
func containerMetadata(_ path: String) throws -> PhotoMetadata? {
  let bytes = [UInt8](try Data(contentsOf: Corpus.url(path)))
  guard let format = PhotoFormat(signature: Array(bytes.prefix(16))) else { return nil }
  let found = ContainerReader.read(MemoryBytes(bytes), format: format)
  return found.exif.flatMap { block in block.withUnsafeBytes { ExifReader.read(exifBlock: $0) } }
}

@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpora"))
struct ContainerCorpusTests {
  // The manifest's H (HEIF) and T (TIFF/DNG/WebP) rows, exiftool's values.
  @Test(arguments: [
    ("exif-samples/heic/IMG_5195.HEIC", 39.0513444444444, -94.2887722222222),
    ("exif-samples/heic/mobile/HMD_Nokia_8.3_5G.heif", 40.78868522, -4.00514085),
    ("exif-samples/heic/mobile/HMD_Nokia_8.3_5G_hdr.heif", 40.6629935, -3.76374051),
    ("exiv2-samples/2021-02-13-1929.heic", 30.5803666666667, -88.0739055555556),
    ("exiv2-samples/Stonehenge.heic", 51.1782805555556, -1.82663888888889),
    ("photoprism-testdata/iphone_7.heic", 34.79745, 134.764633333333),
    ("exiv2-samples/IMG_1361.dng", 34.0596083333333, -84.681725),
    ("exiv2-samples/exiv2-bug1199.webp", 51.1782816666667, -1.82664),
  ])
  func gpsMatchesExiftool(path: String, latitude: Double, longitude: Double) throws {
    let m = try #require(try containerMetadata(path), "\(path): no EXIF found")
    let c = try #require(m.coordinate, "\(path): no coordinate")
    #expect(abs(c.latitude - latitude) < 1e-6 && abs(c.longitude - longitude) < 1e-6)
  }

  @Test func offsetsFromHEIC() throws {
    #expect(try containerMetadata("exif-samples/heic/IMG_5195.HEIC")?.takenAt?.iso8601 == "2021-04-11T15:47:53-05:00")
    #expect(try containerMetadata("exiv2-samples/2021-02-13-1929.heic")?.takenAt?.utcOffsetMinutes == -360)
  }

  @Test func pngWithEXIfButNoGPS() throws {
    let m = try containerMetadata("photoprism-testdata/screenshot.png")
    #expect(m != nil && m?.coordinate == nil)
  }

  /// Every malformed container and its truncations: a truncated container never gains a
  /// position, nor one other than the whole file's.
  @Test func truncatedContainersNeverGainAPosition() throws {
    let folder = Corpus.url("exiv2-malformed")
    var containers = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
      guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { continue }
      let bytes = [UInt8](data)
      guard let format = PhotoFormat(signature: Array(bytes.prefix(16))), format != .jpeg else { continue }
      containers += 1
      func position(_ prefix: [UInt8]) -> Coordinate? {
        let found = ContainerReader.read(MemoryBytes(prefix), format: format)
        return found.exif.flatMap { block in block.withUnsafeBytes { ExifReader.read(exifBlock: $0) } }?.coordinate
      }
      let whole = position(bytes)
      for cut in [bytes.count / 2, 64, 16] where cut < bytes.count {
        let part = position(Array(bytes.prefix(cut)))
        #expect(part == nil || part == whole, "\(name) cut at \(cut)")
      }
    }
    // The folder holds TIFF, PNG, WebP, HEIF and other containers, not only JPEGs.
    #expect(containers >= 10, "\(containers) containers")
  }
}

@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpora"))
struct XMPCorpusTests {
  func xmp(_ path: String) throws -> XMPMetadata? { XMPReader.read([UInt8](try Data(contentsOf: Corpus.url(path)))) }

  @Test(arguments: [
    ("photoprism-testdata/ladybug.xmp", 51.2548516666667, 7.38946833333333),
    ("photoprism-testdata/photoshop.xmp", 52.45969, 13.3218316666667),
    ("photoprism-testdata/iphone_7.xmp", 34.79745, 134.764633333333),
    ("photoprism-testdata/apple-test-2.xmp", 52.5250816, 13.3693672),
    // exiftool 12.57 ignores the separate Ref W here; the true longitude is west.
    ("photoprism-testdata/date.heic.xmp", 47.6754033333333, -122.317391666667),
  ])
  func sidecarsMatchTheManifest(path: String, latitude: Double, longitude: Double) throws {
    let c = try #require(try xmp(path)?.coordinate, "\(path): no coordinate")
    #expect(abs(c.latitude - latitude) < 1e-6 && abs(c.longitude - longitude) < 1e-6)
  }

  @Test func titlesAndDates() throws {
    let photoshop = try #require(try xmp("photoprism-testdata/photoshop.xmp"))
    #expect(photoshop.takenAt?.dateString == "2020-01-01")
  }

  @Test func xmpEmbeddedInAJPEG() throws {
    // exiv2-bug540.jpg has its GPS only in the APP1 XMP packet.
    let bytes = [UInt8](try Data(contentsOf: Corpus.url("exiv2-samples/exiv2-bug540.jpg")))
    guard case .complete(let segments) = bytes.withUnsafeBytes({ JPEGSegments.scan($0, fileSize: bytes.count) }),
      let range = segments.xmp
    else {
      Issue.record("no XMP segment")
      return
    }
    let c = try #require(XMPReader.read(Array(bytes[range]))?.coordinate)
    #expect(abs(c.latitude - 54.9896666666667) < 1e-6 && abs(c.longitude - -1.91416666666667) < 1e-6)
  }
}

@Suite struct XMPFormTests {
  @Test func valueForms() {
    #expect(XMPReader.degrees("51,15.291100N", ref: nil).map { abs($0 - 51.2548516666667) < 1e-9 } == true)
    #expect(XMPReader.degrees("35,40,48S", ref: nil) == -35.68)
    #expect(XMPReader.degrees("122.5", ref: "W") == -122.5)
    #expect(XMPReader.degrees("abc", ref: nil) == nil)
    let attributes = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
        exif:GPSLatitude="35,40.8N" exif:GPSLongitude="139,45.6E" exif:GPSAltitude="1250/100"
        exif:DateTimeOriginal="2024-05-03T10:15:00+09:00">
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Marunouchi</rdf:li></rdf:Alt></dc:title>
      </rdf:Description></rdf:RDF></x:xmpmeta>
      """
    let m = XMPReader.read(Array(attributes.utf8))
    #expect(m?.coordinate == Coordinate(latitude: 35.68, longitude: 139.76))
    #expect(m?.altitude == 12.5 && m?.title == "Marunouchi")
    #expect(m?.takenAt?.iso8601 == "2024-05-03T10:15:00+09:00")
    #expect(XMPReader.read(Array("<!DOCTYPE x [<!ENTITY a 'b'>]><x/>".utf8)) == nil)
  }

  /// The position is the top-level `exif:GPS*`, or else `LocationCreated`'s; `LocationShown`
  /// (where the subject is) never gives it.
  @Test(
    arguments: [
      (true, true, Coordinate(latitude: 35.68, longitude: 139.76)),
      (false, true, Coordinate(latitude: 34.5, longitude: 135.5)),
      (false, false, nil),
    ] as [(Bool, Bool, Coordinate?)])
  func onlyTheTopLevelOrLocationCreatedIsWhereThePhotoWasTaken(top: Bool, created: Bool, expected: Coordinate?) {
    let topLevel = top ? #"exif:GPSLatitude="35,40.8N" exif:GPSLongitude="139,45.6E""# : ""
    let createdBlock =
      created
      ? """
      <Iptc4xmpExt:LocationCreated><rdf:Bag><rdf:li rdf:parseType="Resource">
      <exif:GPSLatitude>34,30.0N</exif:GPSLatitude><exif:GPSLongitude>135,30.0E</exif:GPSLongitude>
      </rdf:li></rdf:Bag></Iptc4xmpExt:LocationCreated>
      """ : ""
    let packet = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/"
        xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" \(topLevel)>
      <Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource"
        exif:GPSLatitude="27,59.3N" exif:GPSLongitude="86,55.5E"/></rdf:Bag></Iptc4xmpExt:LocationShown>
      \(createdBlock)
      <Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource">
        <exif:GPSLatitude>48,51.5N</exif:GPSLatitude><exif:GPSLongitude>2,17.7E</exif:GPSLongitude>
      </rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>
      </rdf:Description></rdf:RDF></x:xmpmeta>
      """
    #expect(XMPReader.read(Array(packet.utf8))?.coordinate == expected)
  }
}
