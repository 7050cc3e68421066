/// A fingerprint of a file's content that recognises the same photo under a new path.
///
/// Hashes the size, the first 64 KiB and the last 64 KiB (digiKam's partial-hash idea): cheap
/// for large files, and two different photos practically never share all three. 128 bits
/// from two independent 64-bit lanes with MurmurHash3's finaliser; not cryptographic.
public enum ContentHash {
  public static let sampleSize = 64 * 1024

  public static func hash(
    size: Int64, head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer
  ) -> String {
    var a: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bitPattern: size)
    var b: UInt64 = 0x1319_8A2E_0370_7344 &+ UInt64(bitPattern: size)
    mix(head, &a, &b)
    mix(tail, &a, &b)
    return hex(finalize(a ^ (b >> 1))) + hex(finalize(b ^ (a << 1)))
  }

  private static func mix(_ bytes: UnsafeRawBufferPointer, _ a: inout UInt64, _ b: inout UInt64) {
    let words = bytes.count / 8
    for i in 0..<words {
      let w = bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
      a = (a ^ w) &* 0x8765_4321_0FED_CBA9
      a = (a << 29) | (a >> 35)
      b = (b &+ w) &* 0x9E37_79B9_7F4A_7C15
      b = (b << 23) | (b >> 41)
    }
    var last: UInt64 = UInt64(bytes.count)
    for i in (words * 8)..<bytes.count { last = (last << 8) | UInt64(bytes[i]) }
    a = (a ^ last) &* 0x8765_4321_0FED_CBA9
    b = (b &+ last) &* 0x9E37_79B9_7F4A_7C15
  }

  private static func finalize(_ x: UInt64) -> UInt64 {
    var h = x
    h ^= h >> 33
    h = h &* 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    h = h &* 0xC4CE_B9FE_1A85_EC53
    h ^= h >> 33
    return h
  }

  private static func hex(_ x: UInt64) -> String {
    let s = String(x, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
  }
}
