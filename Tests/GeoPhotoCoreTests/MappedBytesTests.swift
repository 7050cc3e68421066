import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@Suite struct MappedBytesTests {
  /// Pages handed back are no longer held, and read again they are the file's bytes; a part
  /// hands back its own pages only; bytes copied from memory are kept.
  @Test func releasedPagesAreReadAgainUnchanged() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("data.bin")
    let written = (0..<(1 << 18)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
    try Data(written).write(to: url)
    let mapped = try MappedBytes(contentsOf: url, populate: false)
    #expect(mapped.bytes.elementsEqual(written))
    #expect(ResidentMemory.kilobytes(ofMappingAt: mapped.base) == 256)
    mapped.release(mapped.bytes)
    #expect(ResidentMemory.kilobytes(ofMappingAt: mapped.base) == 0)
    #expect(mapped.bytes.elementsEqual(written))
    mapped.release(UnsafeRawBufferPointer(rebasing: mapped.bytes[0..<(1 << 16)]))
    #expect(ResidentMemory.kilobytes(ofMappingAt: mapped.base) == 192)
    #expect(mapped.bytes.elementsEqual(written))
    let copy = MappedBytes(Data([1, 2, 3]))
    copy.release(copy.bytes)
    #expect(Array(copy.bytes) == [1, 2, 3])
  }
}
