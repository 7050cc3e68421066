import GeoPhotoCore
import GeoPhotoEncoding
import Testing

@testable import GeoPhotoServer

/// The fragments' table finds what a `Dictionary` of the same keys finds, through growth and
/// after starting over.
@Suite struct FragmentTableTests {
  @Test func findsWhatADictionaryFinds() throws {
    let photo = try #require(AnnotationFragmentsTests.photos().first { $0.coordinate != nil })
    let annotation = try #require(Annotation(photo: photo, distance: nil))
    let layout = EncodedAnnotation(
      annotation, subtitle: SubtitleTemplate(photo: photo), form: .object,
      options: AnnotationDocument.Options(includePaths: false)
    ).layout
    var table = FragmentTable()
    var reference: [Int64: [Bool: Int]] = [:]
    // Dense ids (rowids), ids sharing their low bits, and the extremes of Int64.
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func nextID() -> Int64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      switch state >> 62 {
      case 0: return Int64(state >> 40 % 30_000)
      case 1: return Int64(state >> 50) << 16
      case 2: return Int64(bitPattern: state)
      default: return [Int64.min, Int64.max, 0, -1][Int(state >> 33 % 4)]
      }
    }
    for round in 0..<3 {
      for n in 0..<(4_000 * (round + 1)) {
        let id = nextID()
        let feature = (state >> 20) & 1 == 1
        let key = FragmentTable.Key(id: id, form: feature ? .feature : .object)
        guard reference[id]?[feature] == nil else { continue }
        #expect(table[key] == nil)
        table.insert(key, FragmentTable.Slot(start: n, layout: layout))
        reference[id, default: [:]][feature] = n
      }
      #expect(table.count == reference.values.reduce(0) { $0 + $1.count })
      for (id, forms) in reference {
        for feature in [false, true] {
          let slot = table[FragmentTable.Key(id: id, form: feature ? .feature : .object)]
          #expect(slot?.start == forms[feature], "id \(id), feature \(feature)")
        }
      }
      table.removeAll()
      #expect(table.count == 0)
      for id in reference.keys { #expect(table[FragmentTable.Key(id: id, form: .object)] == nil) }
      reference.removeAll()
    }
  }
}
