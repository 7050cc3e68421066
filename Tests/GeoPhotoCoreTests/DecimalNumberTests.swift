import GeoPhotoFixtures
import Testing

@testable import GeoPhotoCore

/// `DecimalNumber` reads what `Double(String)` reads, to the same double: the standard library
/// is the oracle.
@Suite struct DecimalNumberTests {
  func parse(_ text: String) -> Double? {
    Array(text.utf8).withUnsafeBufferPointer { DecimalNumber.parse($0) }
  }

  func same(_ a: Double?, _ b: Double?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    default: false
    }
  }

  @Test(arguments: [
    "38.7012345", "-9.1425000", "0", "-0", "-0.0", "+5", "5.", ".5", "1e5", "1E-5", "2.5e+3", "123456789012345",
    "1234567890123456", "0.1234567890123456789", "1e22", "1e23", "9007199254740993", "1e-400", "1e400", "nan", "inf",
    "-infinity", "0x1p3", "", ".", "-", "1e", "1e+", "1.2.3", "12a", " 1", "1 ", "--1", "00000000000000000000001.5",
    "1.00000000000000000000", "4.9e-324", "1.7976931348623157e308", "0.000000000000000000000001",
  ])
  func readsAsTheStandardLibraryDoes(text: String) {
    #expect(same(parse(text), Double(text)), "\(text)")
  }

  /// Random decimals of every length and exponent the fast path takes, and some beyond.
  @Test func randomDecimalsMatchTheStandardLibrary() {
    var generator = SeededGenerator(seed: 0x6765_6f70)
    for _ in 0..<200_000 {
      let integerDigits = Int.random(in: 0...12, using: &generator)
      let fractionDigits = Int.random(in: 0...12, using: &generator)
      var text = Bool.random(using: &generator) ? "-" : ""
      for _ in 0..<integerDigits { text += String(Int.random(in: 0...9, using: &generator)) }
      if fractionDigits > 0 || Bool.random(using: &generator) { text += "." }
      for _ in 0..<fractionDigits { text += String(Int.random(in: 0...9, using: &generator)) }
      if Int.random(in: 0..<4, using: &generator) == 0 { text += "e\(Int.random(in: -30...30, using: &generator))" }
      #expect(same(parse(text), Double(text)), "\(text)")
    }
  }

  @Test func finiteRefusesNaNAndInfinity() {
    for text in ["nan", "inf", "-inf", "1e400"] {
      #expect(Array(text.utf8).withUnsafeBufferPointer { DecimalNumber.finite($0) } == nil, "\(text)")
    }
    #expect(Array("-9.5".utf8).withUnsafeBufferPointer { DecimalNumber.finite($0) } == -9.5)
  }
}
