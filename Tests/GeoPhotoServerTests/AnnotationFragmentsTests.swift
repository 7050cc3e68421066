import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import Testing

@testable import GeoPhotoServer

/// `/v1/near` answers are written from cached fragments: they must be the bytes the annotation
/// writer gives, on a hit, on a miss and after a full cache starts over.
@Suite struct AnnotationFragmentsTests {
  /// The sample photos with a place for some (their subtitles do not show the distance).
  static func photos() -> [Photo] {
    samplePhotos().enumerated().map { i, photo in
      var photo = photo
      if i % 3 == 0 {
        photo.place = PlaceName(name: "Chiyoda", admin1: "Tokyo", admin2: "", countryCode: "JP", distance: 90)
      }
      if i % 4 == 0 { photo.title = "\"quoted\" \\ \(i)" }
      return photo
    }
  }

  /// The writer's own answer for `photo`.
  static func reference(
    _ snapshot: LoadedIndex, _ photo: Photo, distance: Double, form: EncodedAnnotation.Form
  ) throws -> String {
    var annotation = try #require(Annotation(photo: photo, distance: distance))
    annotation.files = snapshot.files(of: PhotoDetail(photo: photo, members: []))
    var w = JSONWriter()
    let options = AnnotationDocument.Options(includePaths: false)
    switch form {
    case .object: AnnotationMembers.write(annotation, options: options, coordinate: true, to: &w)
    case .feature: AnnotationMembers.writeFeature(annotation, options: options, to: &w)
    }
    return String(decoding: w.bytes, as: UTF8.self)
  }

  @Test func answersFromAFullCacheAreTheWritersAnswers() throws {
    let photos = Self.photos().filter { $0.coordinate != nil }
    let snapshot = LoadedIndex(generation: 1, photos: photos)
    // The smallest cache: 16 shards of 4 KiB, so a few dozen fragments fill it and it starts over.
    let cache = AnnotationFragments(capacity: 0)
    var made = 0
    for round in 0..<3 {
      for form in [EncodedAnnotation.Form.object, .feature] {
        for (position, photo) in photos.enumerated() {
          let distance = Double(position * 731 + round * 17) + 0.25
          var w = JSONWriter()
          // As an answer does: the kept fragment, or one made, written and kept.
          if !cache.writeKept(id: photo.id, form: form, distance: distance, to: &w) {
            made += 1
            var annotation = try #require(Annotation(photo: photo, distance: nil))
            annotation.files = snapshot.files(of: PhotoDetail(photo: photo, members: []))
            let fragment = EncodedAnnotation(
              annotation, subtitle: SubtitleTemplate(photo: photo), form: form,
              options: AnnotationDocument.Options(includePaths: false))
            w.annotation(fragment, distance: distance)
            cache.keep(fragment, id: photo.id, form: form)
          }
          #expect(
            String(decoding: w.bytes, as: UTF8.self)
              == (try Self.reference(snapshot, photo, distance: distance, form: form)),
            "position \(position), round \(round)")
        }
      }
    }
    let usage = cache.usage
    #expect(usage.bytes <= 16 * 4096 && usage.fragments > 0)
    // Every fragment made once in the first round; the later rounds hit for those kept.
    #expect(made >= 2 * photos.count && made < 6 * photos.count)
  }

  @Test func nearAnswersAreTheSameOnAMissAndOnAHit() throws {
    let api = router()
    for path in [
      "/v1/near?lat=35.68&lon=139.76&limit=40", "/v1/near?lat=35.68&lon=139.76&limit=40&format=geojson",
      "/v1/near?lat=35.68&lon=139.76&limit=40&sort=time",
    ] {
      let first = get(api, path)
      let second = get(api, path)
      #expect(first.status == 200 && first.body == second.body)
      #expect(first.json["annotations"] != nil || path.contains("geojson"))
    }
  }
}
