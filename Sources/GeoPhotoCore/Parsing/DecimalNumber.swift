/// Decimal numbers read from bytes, as `Double(String)` reads them, without making a string:
/// track files hold millions of them.
///
/// The common case, at most 15 significant digits and a power of ten within ±22 (`38.7012345`,
/// `-9.1425`, `1.5e3`), is exact in two doubles whose one product or quotient IEEE arithmetic
/// rounds correctly (Clinger's fast path): the same double as the standard library's. Anything
/// else (more digits, far exponents, `nan`, `inf`, hexadecimal) goes to the standard library.
public enum DecimalNumber {
  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22,
  ]

  /// The number `bytes` spell (nothing around it), or nil where `Double(String)` gives nil.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    if let fast = fastPath(bytes) { return fast }
    guard !bytes.isEmpty, bytes.count <= 4_096 else { return nil }
    return Double(String(decoding: bytes, as: UTF8.self))
  }

  /// The number `bytes` spell when it is finite: a coordinate, an altitude, a time in seconds
  /// (`nan` and `inf` are numbers to `Double(String)`, and no fix's).
  public static func finite(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    parse(bytes).flatMap { $0.isFinite ? $0 : nil }
  }

  /// The number when it is plain decimal within the exact range; nil for everything else
  /// (which is not necessarily not a number).
  static func fastPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var i = 0
    let n = bytes.count
    var negative = false
    if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
      negative = bytes[i] == UInt8(ascii: "-")
      i += 1
    }
    var mantissa: UInt64 = 0
    var significant = 0
    var digits = 0
    var fractionDigits = 0
    var seenPoint = false
    while i < n {
      let byte = bytes[i]
      if byte >= 0x30 && byte <= 0x39 {
        digits += 1
        if seenPoint { fractionDigits += 1 }
        if mantissa != 0 || byte != 0x30 {
          significant += 1
          guard significant <= 15 else { return nil }
          mantissa = mantissa * 10 + UInt64(byte - 0x30)
        }
      } else if byte == UInt8(ascii: "."), !seenPoint {
        seenPoint = true
      } else {
        break
      }
      i += 1
    }
    guard digits > 0 else { return nil }
    var exponent = 0
    if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      var negativeExponent = false
      if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
        negativeExponent = bytes[i] == UInt8(ascii: "-")
        i += 1
      }
      var exponentDigits = 0
      while i < n, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
        exponentDigits += 1
        guard exponentDigits <= 4 else { return nil }
        exponent = exponent * 10 + Int(bytes[i] - 0x30)
        i += 1
      }
      guard exponentDigits > 0 else { return nil }
      if negativeExponent { exponent = -exponent }
    }
    guard i == n else { return nil }
    let power = exponent - fractionDigits
    var value = Double(mantissa)
    if mantissa != 0 {
      guard power >= -22 && power <= 22 else { return nil }
      value = power < 0 ? value / powersOfTen[-power] : value * powersOfTen[power]
    }
    return negative ? -value : value
  }
}
