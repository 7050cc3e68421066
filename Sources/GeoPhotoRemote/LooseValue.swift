/// A JSON value that may be a string, a number or a boolean, read as text or as a number:
/// the providers' APIs send numbers as strings and strings as numbers, sometimes within one
/// answer.
struct LooseValue: Decodable, Sendable, Equatable {
  var value: String

  init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    if let s = try? c.decode(String.self) {
      value = s
    } else if let i = try? c.decode(Int64.self) {
      value = String(i)
    } else if let d = try? c.decode(Double.self) {
      value = String(d)
    } else if let b = try? c.decode(Bool.self) {
      value = b ? "1" : "0"
    } else {
      value = ""
    }
  }

  var double: Double? { Double(value.trimmingCharacters(in: .whitespaces)) }
  /// A whole number; a fraction is cut (`16.0`, `16.5` are 16), and what no Int holds is nil.
  var int: Int? {
    Int(value.trimmingCharacters(in: .whitespaces)) ?? double.flatMap { $0.isFinite && abs($0) < 9e18 ? Int($0) : nil }
  }
}
