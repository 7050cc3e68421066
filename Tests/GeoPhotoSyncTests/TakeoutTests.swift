import Foundation
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

@testable import GeoPhotoSync

/// Google Takeout exports: which JSON sidecar belongs to which file, what it says, and a sync
/// of a Takeout tree written here (no tool makes one).
@Suite struct TakeoutTests {
  static func sidecar(
    _ lat: Double, _ lon: Double, exif: (Double, Double) = (0, 0), taken: String = "1714580430",
    title: String = "IMG.jpg", description: String = ""
  ) -> String {
    """
    {"title": "\(title)", "description": "\(description)",
     "creationTime": {"timestamp": "1717000000", "formatted": "May 29, 2024"},
     "photoTakenTime": {"timestamp": "\(taken)", "formatted": "May 1, 2024, 4:20:30 PM UTC"},
     "geoData": {"latitude": \(lat), "longitude": \(lon), "altitude": 12.5, "latitudeSpan": 0.0, "longitudeSpan": 0.0},
     "geoDataExif": {"latitude": \(exif.0), "longitude": \(exif.1), "altitude": 0.0, "latitudeSpan": 0.0,
       "longitudeSpan": 0.0},
     "url": "https://photos.google.com/photo/AF1Qip", "googlePhotosOrigin": {"mobileUpload": {}}}
    """
  }

  /// Each naming rule of the reference, media name to sidecar name.
  @Test func sidecarNames() {
    let long = "PXL_20230518_172143938.NIGHT.PORTRAIT-01.COVER~2.jpg"  // 51 characters
    let cutInExtension = "IMG_" + String(repeating: "x", count: 40)  // 44 characters
    let pairs: [(media: String, json: String)] = [
      ("IMG_1234.JPG", "IMG_1234.JPG.json"),
      ("IMG_1235.JPG", "IMG_1235.JPG.supplemental-metadata.json"),
      ("IMG_1236.heic", "IMG_1236.heic.supplemental-metad.json"),  // any prefix of supplemental-metadata
      ("IMG_3479(1).JPG", "IMG_3479.JPG(1).json"),  // the duplicate index moves before .json
      ("IMG_3480(2).JPG", "IMG_3480.JPG.supplemental-metadata(2).json"),
      (long, String(long.prefix(46)) + ".json"),  // cut inside the media name
      ("Screenshot_2019-05-03-17-21-00-41_com.app.jpg", "Screenshot_2019-05-03-17-21-00-41_com.app.jpg.json"),
      ("20240501_162030_long_file_name_x.jpg", "20240501_162030_long_file_name_x.jpg.supplemen.json"),  // cut to 46
      (cutInExtension + ".jpg", cutInExtension + ".j.json"),  // 44 + ".jpg" cut to 46: "….j.json"
      ("IMG_1237-edited.JPG", "IMG_1237.JPG.json"),  // an edited copy uses the original's
      ("IMG_1238-bearbeitet.jpg", "IMG_1238.jpg.supplemental-metadata.json"),
      ("img_1239.jpg", "IMG_1239.JPG.JSON"),  // any case
    ]
    let names = TakeoutNames(
      pairs.map { ($0.json, TakeoutNames.Sidecar(path: "/t/" + $0.json, modified: 0)) }
        + [("metadata.json", TakeoutNames.Sidecar(path: "/t/metadata.json", modified: 0))])
    for (media, json) in pairs {
      #expect(names.sidecar(for: media)?.path == "/t/" + json, "\(media)")
    }
    #expect("20240501_162030_long_file_name_x.jpg.supplemen".count == 46)
    for unmatched in ["IMG_3479.JPG(1).jpg", "IMG_3479(2).JPG", "metadata.jpg", "IMG_9999.JPG", "IMG_1234.JPG.jpg"] {
      #expect(names.sidecar(for: unmatched) == nil, "\(unmatched)")
    }
    // The original keeps its own sidecar beside an edited copy's.
    #expect(names.sidecar(for: "IMG_1237.JPG")?.path == "/t/IMG_1237.JPG.json")
  }

  @Test func sidecarValues() throws {
    let shown = try #require(TakeoutReader.read(Array(Self.sidecar(35.6812, 139.7671, exif: (35.0, 139.0)).utf8)))
    #expect(shown.coordinate == Coordinate(latitude: 35.6812, longitude: 139.7671))  // geoData first
    #expect(shown.altitude == 12.5)
    #expect(shown.takenAt?.iso8601 == "2024-05-01T16:20:30Z")  // an instant, UTC
    #expect(shown.originalName == "IMG.jpg" && shown.description == nil)
    let exifOnly = try #require(TakeoutReader.read(Array(Self.sidecar(0, 0, exif: (48.8584, 2.2945)).utf8)))
    #expect(exifOnly.coordinate == Coordinate(latitude: 48.8584, longitude: 2.2945))
    let none = try #require(TakeoutReader.read(Array(Self.sidecar(0.0, 0.0, taken: "0").utf8)))
    #expect(none.coordinate == nil && none.takenAt == nil)
    let album = try #require(TakeoutReader.read(Array(#"{"title": "Trip", "albumData": {"date": {}}}"#.utf8)))
    #expect(album.coordinate == nil && album.takenAt == nil)
    for bad in ["", "[1, 2]", "{\"geoData\": ", "null"] {
      #expect(TakeoutReader.read(Array(bad.utf8)) == nil, "\(bad)")
    }
  }

  @Test(arguments: StoreKind.available)
  func aTakeoutTreeSyncs(kind: StoreKind) throws {
    let w = try Workspace(kind)
    let album = w.photos.appendingPathComponent("Takeout/Google Photos/Trip to Kyoto")
    try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
    func media(_ name: String, gps: Coordinate? = nil) throws {
      try SampleJPEG.write(to: album.appendingPathComponent(name)) { b in
        b.coordinate = gps
        b.takenAt = nil
      }
    }
    func json(_ name: String, _ text: String) throws {
      try Data(text.utf8).write(to: album.appendingPathComponent(name))
    }
    let kyoto = Coordinate(latitude: 34.9671, longitude: 135.7727)
    let own = Coordinate(latitude: 34.9949, longitude: 135.7850)
    try media("IMG_0001.JPG")
    try json(
      "IMG_0001.JPG.supplemental-metadata.json",
      Self.sidecar(kyoto.latitude, kyoto.longitude, description: "Fushimi Inari"))
    try media("IMG_0001-edited.JPG")
    try media("IMG_0001(1).JPG")
    try json("IMG_0001.JPG(1).json", Self.sidecar(35.0116, 135.7681, taken: "1714600000"))
    try media("IMG_0002.JPG", gps: own)  // the file's own position wins over the sidecar's
    try json("IMG_0002.JPG.json", Self.sidecar(kyoto.latitude, kyoto.longitude))
    try media("IMG_0003.JPG")
    try json("IMG_0003.JPG.json", Self.sidecar(0.0, 0.0))  // Google's "no location"
    try media("IMG_0004.JPG")
    try json("IMG_0004.JPG.json", "{not json")
    try json("metadata.json", #"{"title": "Trip to Kyoto", "description": "", "access": "protected"}"#)

    let summary = try w.sync()
    #expect(summary.added == 6, "\(summary)")
    #expect(w.warnings.count == 1 && w.warnings.first?.1.contains("IMG_0004.JPG.json") == true, "\(w.warnings)")
    let photos = try w.all()
    func photo(_ name: String) throws -> Photo {
      try #require(photos[w.canonical("Takeout/Google Photos/Trip to Kyoto/" + name)], "\(name)")
    }
    let first = try photo("IMG_0001.JPG")
    #expect(first.coordinate == kyoto && first.altitude == 12.5)
    #expect(first.takenAt?.iso8601 == "2024-05-01T16:20:30Z" && first.title == "Fushimi Inari")
    #expect(first.description == "Fushimi Inari")
    #expect(try photo("IMG_0001-edited.JPG").coordinate == kyoto)
    let duplicate = try photo("IMG_0001(1).JPG")
    #expect(duplicate.coordinate == Coordinate(latitude: 35.0116, longitude: 135.7681))
    #expect(duplicate.takenAt == CaptureDate(secondsSinceEpoch: 1_714_600_000, utcOffsetMinutes: 0))
    #expect(try photo("IMG_0002.JPG").coordinate == own)
    #expect(try photo("IMG_0003.JPG").coordinate == nil)
    #expect(try photo("IMG_0004.JPG").coordinate == nil)

    // Editing a sidecar makes the next sync read its photo again.
    let moved = Coordinate(latitude: 35.0394, longitude: 135.7292)
    try json("IMG_0003.JPG.json", Self.sidecar(moved.latitude, moved.longitude))
    let later = Date().addingTimeInterval(5)
    try FileManager.default.setAttributes(
      [.modificationDate: later], ofItemAtPath: album.appendingPathComponent("IMG_0003.JPG.json").path)
    let again = try w.sync()
    #expect(again.updated == 1 && again.unchanged == 5, "\(again)")
    #expect(try w.all()[w.canonical("Takeout/Google Photos/Trip to Kyoto/IMG_0003.JPG")]?.coordinate == moved)
  }
}

/// Descriptions and keywords: from XMP (embedded or a sidecar) and Takeout, into the index.
@Suite struct DescriptionTests {
  static let sidecar = """
    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
     <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"
       xmlns:lr="http://ns.adobe.com/lightroom/1.0/">
      <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Morning at Fushimi Inari, before the crowds</rdf:li>
       <rdf:li xml:lang="ja">伏見稲荷の朝</rdf:li></rdf:Alt></dc:description>
      <dc:subject><rdf:Bag><rdf:li>torii</rdf:li><rdf:li>shrine</rdf:li><rdf:li>Kyōto</rdf:li></rdf:Bag></dc:subject>
      <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|Japan|Kyōto</rdf:li><rdf:li>Trips|2024 spring</rdf:li>
      </rdf:Bag></lr:hierarchicalSubject>
     </rdf:Description></rdf:RDF></x:xmpmeta>
    """

  @Test(arguments: StoreKind.available)
  func sidecarsBringDescriptionsAndKeywords(kind: StoreKind) throws {
    let w = try Workspace(kind)
    try w.photo("IMG_0001.JPG", 34.9671, 135.7727)
    try Data(Self.sidecar.utf8).write(to: w.photos.appendingPathComponent("IMG_0001.xmp"))
    _ = try w.sync()
    let photo = try #require(try w.all()[w.canonical("IMG_0001.JPG")])
    #expect(photo.description == "Morning at Fushimi Inari, before the crowds")
    #expect(photo.keywords == ["torii", "shrine", "Kyōto", "Places", "Japan", "Trips", "2024 spring"])
  }

  @Test func aDescriptionInsideAnotherElementIsNotTheDublinCoreOne() throws {
    let xmp = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
       <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt>
       <rdf:li xml:lang="x-default">Gate</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>
      """
    let m = try #require(XMPReader.read(Array(xmp.utf8)))
    #expect(m.title == "Gate" && m.description == nil && m.keywords.isEmpty)
  }
}
