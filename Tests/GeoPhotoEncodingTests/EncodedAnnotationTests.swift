import Foundation
import GeoPhotoCore
import Testing

@testable import GeoPhotoEncoding

/// Pre-encoded annotations give the bytes the annotation writer gives for the same annotation
/// at the same distance, whatever the subtitle and members.
@Suite struct EncodedAnnotationTests {
  static let tokyo = Coordinate(latitude: 35.68124, longitude: 139.76712)
  static let date = CaptureDate(iso8601: "2024-05-03T10:00:00+09:00")

  /// Photos covering every subtitle shape and the optional members.
  static let photos: [Photo] = [
    // A place: the subtitle does not show the distance.
    Photo(
      id: 1, source: .local, sourceID: "/p/a.jpg", coordinate: tokyo, takenAt: date,
      title: "Hello, \"world\"\n", locationEstimated: true,
      place: PlaceName(name: "Chūō", admin1: "Tokyo", admin2: "", countryCode: "JP", distance: 600)),
    // No place: the subtitle says how far, between the date and "estimated location".
    Photo(
      id: 2, source: .local, sourceID: "/p/b.jpg", coordinate: tokyo, takenAt: date,
      title: "b", locationEstimated: true, mediaType: .video, duration: 12.3456, offsetSource: .gps,
      timeZone: "Asia/Tokyo"),
    // No place and no date: the distance alone.
    Photo(id: 3, source: .local, sourceID: "/p/c.jpg", coordinate: tokyo, title: ""),
    // Remote: attribution, links, no files.
    Photo(
      id: 4, source: .flickr, sourceID: "42", coordinate: tokyo, takenAt: date, title: "Tower",
      url: "https://www.flickr.com/photos/a/42", thumbnailURL: "https://live.staticflickr.com/42_m.jpg",
      attribution: "Ann \\ Example"),
  ]

  static func files(_ photo: Photo) -> [PhotoFile] {
    guard photo.source == .local, let path = photo.path else { return [] }
    return [PhotoFile(path: path, role: .primary), PhotoFile(path: path + ".xmp", role: .sidecar)]
  }

  static let options = AnnotationDocument.Options(includePaths: false)

  /// The annotation writer's own answer for `photo` at `distance`.
  static func reference(_ photo: Photo, distance: Double?, form: EncodedAnnotation.Form) throws -> [UInt8] {
    var annotation = try #require(Annotation(photo: photo, distance: distance))
    annotation.files = files(photo)
    var w = JSONWriter()
    switch form {
    case .object: AnnotationMembers.write(annotation, options: options, coordinate: true, to: &w)
    case .feature: AnnotationMembers.writeFeature(annotation, options: options, to: &w)
    }
    return w.bytes
  }

  static func encoded(_ photo: Photo, form: EncodedAnnotation.Form) throws -> EncodedAnnotation {
    var annotation = try #require(Annotation(photo: photo, distance: nil))
    annotation.files = files(photo)
    return EncodedAnnotation(annotation, subtitle: SubtitleTemplate(photo: photo), form: form, options: options)
  }

  @Test(arguments: [EncodedAnnotation.Form.object, .feature])
  func fragmentsWriteWhatTheWriterWrites(form: EncodedAnnotation.Form) throws {
    for photo in Self.photos {
      let fragment = try Self.encoded(photo, form: form)
      for distance in [nil, 0, 0.04, 349.96, 2_449.5, 12_345.678, 20_015_086.8] as [Double?] {
        var w = JSONWriter()
        w.annotation(fragment, distance: distance)
        let expected = try Self.reference(photo, distance: distance, form: form)
        #expect(
          String(decoding: w.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
          "photo \(photo.id) at \(String(describing: distance))")
      }
    }
  }

  /// In an array among other values, fragments are separated by commas like any value, and
  /// the whole document parses with the distances and subtitles it should have.
  @Test func answersOfFragmentsAreTheDocumentsAnswers() throws {
    let query = NearQuery(center: Self.tokyo, limit: 4)
    let distances: [Double] = [10, 350, 2_400, 24_000]
    var annotations: [Annotation] = []
    for (photo, d) in zip(Self.photos, distances) {
      var a = try #require(Annotation(photo: photo, distance: d))
      a.files = Self.files(photo)
      annotations.append(a)
    }
    let document = AnnotationDocument(annotations, query: query, options: Self.options)
    let objects = try Self.photos.map { try Self.encoded($0, form: .object) }
    let features = try Self.photos.map { try Self.encoded($0, form: .feature) }
    let json = AnnotationDocument.json(query: query, capacity: 64) { w in
      for (f, d) in zip(objects, distances) { w.annotation(f, distance: d) }
    }
    let geoJSON = AnnotationDocument.geoJSON(capacity: 64) { w in
      for (f, d) in zip(features, distances) { w.annotation(f, distance: d) }
    }
    #expect(String(decoding: json, as: UTF8.self) == String(decoding: document.json(), as: UTF8.self))
    #expect(String(decoding: geoJSON, as: UTF8.self) == String(decoding: document.geoJSON(), as: UTF8.self))
    let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
    let subtitles = (parsed["annotations"] as? [[String: Any]])?.compactMap { $0["subtitle"] as? String }
    #expect(
      subtitles == [
        "Chūō, Tokyo, JP · 2024-05-03 · estimated location", "2024-05-03 · 350 m · estimated location",
        "2.4 km", "Ann \\ Example · 2024-05-03",
      ])
  }

  @Test func subtitlesPlaceTheDistanceWhereNoPlaceIsNear() {
    let templates = Self.photos.map(SubtitleTemplate.init(photo:))
    #expect(templates.map(\.showsDistance) == [false, true, true, false])
    #expect(templates[1].text(distance: 349.6) == "2024-05-03 · 350 m · estimated location")
    #expect(templates[1].text(distance: nil) == "2024-05-03 · estimated location")
    #expect(templates[2].text(distance: 9_960) == "10 km")
    #expect(templates[2].text(distance: nil) == "")
    #expect(templates[0].text(distance: 5) == "Chūō, Tokyo, JP · 2024-05-03 · estimated location")
  }
}
