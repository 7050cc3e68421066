import Foundation
import GeoPhotoCore
import Testing

/// The one container of geophoto's data files, against its layout worked out by hand.
@Suite struct SectionedFileTests {
  let kind = SectionedFile.Kind(magic: "GPTESTXX", version: 7, name: "test file")

  @Test func sectionsLieOnSixtyFourBytesAfterTheHeadAndTable() throws {
    let sections: [[UInt8]] = [[1, 2, 3], [], Array(repeating: 9, count: 100)]
    let bytes = SectionedFile.assemble(kind, sections, fields: [0xAA, 0xBB])
    // Head 64 + table 3 × 16 = 112: the first section at 128, the empty one at 192 (after 3
    // bytes and padding), the third at 192 too (the empty one takes no room).
    #expect(Array(bytes[0..<8]) == Array("GPTESTXX".utf8))
    #expect(Array(bytes[8..<16]) == [7, 0, 0, 0, 3, 0, 0, 0])
    #expect(Array(bytes[24..<26]) == [0xAA, 0xBB] && bytes[26..<64].allSatisfy { $0 == 0 })
    func entry(_ k: Int) -> (Int, Int) {
      bytes.withUnsafeBytes { raw in
        (
          Int(raw.loadUnaligned(fromByteOffset: 64 + 16 * k, as: UInt64.self)),
          Int(raw.loadUnaligned(fromByteOffset: 72 + 16 * k, as: UInt64.self))
        )
      }
    }
    #expect(entry(0) == (128, 3) && entry(1) == (192, 0) && entry(2) == (192, 100))
    #expect(bytes.count == 292 && Array(bytes[128..<131]) == [1, 2, 3])

    let reader = try SectionedFile.Reader(MappedBytes(Data(bytes)), kind: kind, name: "t", sectionCount: 3...3)
    #expect(reader.ranges == [128..<131, 192..<192, 192..<292])
    #expect(reader.head.fields.prefix(2) == [0xAA, 0xBB] && reader.verify())
    // One byte changed in a section: the checksum says so.
    var changed = bytes
    changed[250] ^= 1
    let damaged = try SectionedFile.Reader(MappedBytes(Data(changed)), kind: kind, name: "t", sectionCount: 3...3)
    #expect(!damaged.verify())
  }

  @Test func aFileOfAnotherKindVersionOrShapeIsRefusedWithWhy() throws {
    let bytes = SectionedFile.assemble(kind, [[1], [2]])
    func refusal(_ data: [UInt8], kind: SectionedFile.Kind? = nil, sections: ClosedRange<Int> = 2...2) -> String {
      do {
        _ = try SectionedFile.Reader(
          MappedBytes(Data(data)), kind: kind ?? self.kind, name: "t", sectionCount: sections)
        return "read"
      } catch {
        return error.description
      }
    }
    #expect(refusal(Array(bytes.prefix(40))) == "t: not a geophoto test file")
    #expect(
      refusal(bytes, kind: SectionedFile.Kind(magic: "GPTESTXX", version: 8, name: "test file")).contains("another"))
    #expect(refusal(bytes, sections: 3...3).contains("table of sections"))
    // A section's offset near 2^64: outside the file, not a trap.
    var far = bytes
    for i in 64..<72 { far[i] = 0xFF }
    #expect(refusal(far).contains("section 0 lies outside the file"))
    #expect(refusal(Array(bytes.prefix(bytes.count - 1))).contains("section 1 lies outside the file"))
  }
}
