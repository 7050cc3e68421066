/// PNG files made for tests, chunk by chunk with their CRCs.
public enum SamplePNG {
  /// A signature, an IHDR chunk for `width × height` 8-bit RGB, an empty IDAT and IEND: a
  /// header that says how large the image is, and no pixels (a decompression bomb's shape).
  public static func header(width: UInt32, height: UInt32) -> [UInt8] {
    signature + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]) + chunk("IDAT", [])
      + chunk("IEND", [])
  }

  public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A chunk: length, type, data and the CRC-32 of type and data.
  public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in body {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return bigEndian(UInt32(data.count)) + body + bigEndian(~crc)
  }

  static func bigEndian(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }
}
