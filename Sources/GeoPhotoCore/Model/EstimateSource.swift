/// Where an estimated position came from: a track (a GPS file or a location history), the
/// photos taken around it, or a hand; and how it was found there. Stored with the position in
/// the index, shown in answers and in `geotag --dry-run`.
public struct EstimateSource: Hashable, Sendable {
  public enum Kind: String, CaseIterable, Sendable {
    /// A track file or a location history; `name` is the file's name.
    case track
    /// The located photos taken around it; `name` is the nearest one's file name.
    case photos
    /// Placed by hand (`geotag --at`, the map).
    case hand
  }

  public enum Method: Hashable, Sendable {
    /// At a fix's own instant.
    case exact
    /// Between two fixes this many seconds apart.
    case interpolated(seconds: Double)
    /// The nearest fix, this many seconds away (past a track's end, within the extrapolation).
    case endFix(seconds: Double)
    /// Inside a stay at one place.
    case visit
    /// Where it was put.
    case hand
  }

  public var kind: Kind
  /// The track's file name or the neighbouring photo's; empty by hand.
  public var name: String
  public var method: Method

  public init(kind: Kind, name: String, method: Method) {
    self.kind = kind
    self.name = name
    self.method = method
  }

  public static let byHand = EstimateSource(kind: .hand, name: "", method: .hand)

  /// The method's word, as answers give it: `exact`, `interpolated`, `end fix`, `visit`, `hand`.
  public var methodName: String {
    switch method {
    case .exact: "exact"
    case .interpolated: "interpolated"
    case .endFix: "end fix"
    case .visit: "visit"
    case .hand: "hand"
    }
  }

  /// How, in words: `interpolated over 12 s`, `end fix 40 s away`, `visit`, `by hand`.
  public var how: String {
    switch method {
    case .exact: "at a fix"
    case .interpolated(let seconds): "interpolated over \(Self.seconds(seconds))"
    case .endFix(let seconds): "end fix \(Self.seconds(seconds)) away"
    case .visit: "visit"
    case .hand: "by hand"
    }
  }

  /// From where, in words: `day1.gpx`, `beside IMG_0399.HEIC`, `by hand`.
  public var from: String {
    switch kind {
    case .track: name
    case .photos: "beside \(name)"
    case .hand: "by hand"
    }
  }

  private static func seconds(_ value: Double) -> String {
    value < 60 && value != value.rounded() ? "\((value * 10).rounded() / 10) s" : "\(Int(value.rounded())) s"
  }

  /// The stored form, one line: `track<TAB>interpolated<TAB>12.5<TAB>day1.gpx`.
  public var text: String {
    let seconds: Double? =
      switch method {
      case .interpolated(let s), .endFix(let s): s
      case .exact, .visit, .hand: nil
      }
    let name = name.map { $0 == "\t" || $0 == "\n" ? " " : $0 }
    return [kind.rawValue, methodName, seconds.map { "\($0)" } ?? "", String(name)].joined(separator: "\t")
  }

  /// The stored form read back; nil for text that is not one.
  public init?(text: String) {
    let parts = text.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
    guard parts.count == 4, let kind = Kind(rawValue: String(parts[0])) else { return nil }
    let seconds = Double(parts[2]).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    let method: Method
    switch parts[1] {
    case "exact": method = .exact
    case "interpolated": method = .interpolated(seconds: seconds ?? 0)
    case "end fix": method = .endFix(seconds: seconds ?? 0)
    case "visit": method = .visit
    case "hand": method = .hand
    default: return nil
    }
    self.init(kind: kind, name: String(parts[3]), method: method)
  }
}
