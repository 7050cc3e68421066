import GeoPhotoCore
import GeoPhotoStore
import Testing

/// The one decoding of a row into a photo, read through a row made by hand (a driver's row
/// in miniature: values by position, nil for NULL).
@Suite struct PhotoRowTests {
  struct Row: PhotoRow {
    var values: [PhotoColumn: Any] = [:]
    func value(_ index: Int) -> Any? { PhotoColumn(rawValue: index).flatMap { values[$0] } }
    func int64(at index: Int) -> Int64? { value(index) as? Int64 }
    func double(at index: Int) -> Double? { value(index) as? Double }
    func text(at index: Int) -> String? { value(index) as? String }
    func bool(at index: Int) -> Bool? { (value(index) as? Int64).map { $0 != 0 } }
  }

  /// A photo with every member set, none to its default.
  static let full = Photo(
    id: 7, source: .flickr, sourceID: "53", coordinate: Coordinate(latitude: 35, longitude: 139),
    altitude: 12, takenAt: CaptureDate(year: 2024, month: 5, day: 3, hour: 9, utcOffsetMinutes: 540), title: "Shrine",
    cameraMake: "FUJIFILM", cameraModel: "X100V", width: 6000, height: 4000, orientation: 6, url: "https://x/1",
    thumbnailURL: "https://x/1.jpg", attribution: "Ann", license: "CC BY 2.0", locationEstimated: true,
    place: PlaceName(name: "Chūō", admin1: "Tokyo", admin2: "", countryCode: "JP", distance: 120), mediaType: .video,
    duration: 3.5, offsetSource: .camera, timeZone: "Asia/Tokyo", offsetAmbiguity: .gap, description: "Morning",
    keywords: ["a", "b"])

  @Test func aPhotoReadAgainKeepsNothingOfTheRowBefore() {
    let sparse = Row(values: [.id: Int64(9), .source: "local", .sourceID: "/p/b.jpg", .title: "b"])
    var reused = Self.full
    reused.read(sparse)
    #expect(reused == Photo(row: sparse))
    #expect(reused == Photo(id: 9, source: .local, sourceID: "/p/b.jpg", title: "b"))
  }

  @Test func namesAndTimesAreReadFromTheirBytes() {
    let row = Row(values: [
      .id: Int64(1), .source: "local", .sourceID: "/p/c.jpg", .title: "c", .mediaType: "video",
      .offsetSource: "place", .offsetAmbiguity: "fold", .takenAt: "2024-05-03T23:30:00+09:00",
    ])
    let photo = Photo(row: row)
    #expect(photo.mediaType == .video)
    #expect(photo.offsetSource == .place)
    #expect(photo.offsetAmbiguity == .fold)
    #expect(photo.takenAt == CaptureDate(year: 2024, month: 5, day: 3, hour: 23, minute: 30, utcOffsetMinutes: 540))
    // A name the type does not have reads as none (the media type's default).
    let odd = Photo(row: Row(values: [.mediaType: "hologram", .offsetSource: "guess"]))
    #expect(odd.mediaType == .photo)
    #expect(odd.offsetSource == nil)
  }
}
