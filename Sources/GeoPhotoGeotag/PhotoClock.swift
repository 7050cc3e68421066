public import Foundation
public import GeoPhotoCore
import Synchronization

/// The zone a camera's clock was set to, for photos whose capture time carries no offset:
/// a fixed offset (`+02:00`), a named zone (`Europe/Lisbon`) whose offset at the photo's
/// time, daylight saving included, is used, or the zone of wherever the track was (`auto`).
public enum CameraZone: Equatable, Sendable, CustomStringConvertible {
  case offset(minutes: Int)
  case named(TimeZone)
  /// The zone of the track's position at the moment the local time, read in that zone,
  /// falls on the track.
  case auto

  public struct Unknown: Error, CustomStringConvertible {
    public var description: String
  }

  /// `±HH:MM` or an IANA zone name.
  public init(parsing text: String) throws(Unknown) {
    if text == "auto" {
      self = .auto
    } else if let minutes = CaptureDate.parseOffset(text) {
      self = .offset(minutes: minutes)
    } else if text.contains("/") || text == "UTC", let zone = TimeZone(identifier: text) {
      self = .named(zone)
    } else {
      throw Unknown(description: "expected an offset such as +09:00, a zone such as Asia/Tokyo, or auto")
    }
  }

  public var description: String {
    switch self {
    case .offset(let minutes):
      (minutes < 0 ? "-" : "+") + String(format: "%02d:%02d", abs(minutes) / 60, abs(minutes) % 60)
    case .named(let zone): zone.identifier
    case .auto: "auto"
    }
  }

  /// The instants a local wall time (seconds since 1970 as if UTC) can be in this zone: one,
  /// or two where the zone's clocks went back (a fold) or forward (a gap: the time never
  /// showed, and either offset around it may be what the camera kept).
  /// (`auto` has none of its own: the track decides.)
  public func instants(ofLocal local: Int) -> [Int] {
    switch self {
    case .offset(let minutes):
      return [local - minutes * 60]
    case .named(let zone):
      return Self.offsets(of: zone, atLocal: local).map { local - $0 }
    case .auto:
      return []
    }
  }

  /// The offsets (seconds) at which `zone` shows the local time `local`: one, two in a fold,
  /// or, in a gap, the two around it; the larger (the earlier instant) first.
  public static func offsets(of zone: TimeZone, atLocal local: Int) -> [Int] {
    func offset(at instant: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) }
    let nearby = Set([offset(at: local - 86_400), offset(at: local + 86_400), offset(at: local)])
    let valid = nearby.filter { offset(at: local - $0) == $0 }
    return (valid.isEmpty ? nearby : valid).sorted(by: >)
  }
}

/// How wrong the camera's clock was: seconds to add to its times to get true times, the same
/// all along (`--offset`) or drifting linearly through the moments it was checked (two or
/// more `--sync` photos).
public struct ClockCorrection: Equatable, Sendable, CustomStringConvertible {
  /// The checks: a camera instant and the seconds to add there, by camera instant.
  public private(set) var checks: [(camera: Double, offset: Double)]

  public static let none = ClockCorrection(offset: 0)

  public init(offset: Double) { checks = [(0, offset)] }

  public init(checks: [(camera: Double, offset: Double)]) {
    self.checks = checks.sorted { $0.camera < $1.camera }
  }

  public static func == (a: ClockCorrection, b: ClockCorrection) -> Bool {
    a.checks.elementsEqual(b.checks) { $0.camera == $1.camera && $0.offset == $1.offset }
  }

  /// The seconds to add to the camera's instant `camera`: linear between the two checks
  /// around it, and along the first or last two beyond them (as exiftool's `-geosync`).
  public func offset(at camera: Double) -> Double {
    guard checks.count > 1 else { return checks.first?.offset ?? 0 }
    var i = 1
    while i < checks.count - 1, checks[i].camera < camera { i += 1 }
    let (a, b) = (checks[i - 1], checks[i])
    guard b.camera > a.camera else { return b.offset }
    return a.offset + (b.offset - a.offset) * (camera - a.camera) / (b.camera - a.camera)
  }

  public var description: String {
    guard checks.count > 1 else { return Self.text(checks.first?.offset ?? 0) }
    return checks.map { "\(Self.text($0.offset)) at \(Self.instantText($0.camera))" }.joined(separator: ", then ")
  }

  /// `+00:01:23`, `-1 02:00:00` (a day and two hours slow).
  public static func text(_ seconds: Double) -> String {
    let total = Int(abs(seconds).rounded())
    let days = total / 86_400
    let rest = total % 86_400
    let clock = String(format: "%02d:%02d:%02d", rest / 3_600, rest % 3_600 / 60, rest % 60)
    return (seconds < 0 ? "-" : "+") + (days > 0 ? "\(days) " : "") + clock
  }

  /// `+00:02:00`, `-00:00:45`, `+1 02:00:00` (days before the clock), or plain seconds.
  public static func parse(_ text: String) -> Double? {
    let text = text.trimmingCharacters(in: .whitespaces)
    if let seconds = Double(text), seconds.isFinite, abs(seconds) < 1e9 { return seconds }
    guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
    var body = text.dropFirst()
    var days = 0
    if let space = body.firstIndex(of: " ") {
      guard let d = Int(body[..<space]), (0...3_650).contains(d) else { return nil }
      days = d
      body = body[body.index(after: space)...]
    }
    let parts = body.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Double(parts[2]), s.isFinite,
      (0...99).contains(h), (0..<60).contains(m), s >= 0, s < 60
    else { return nil }
    return (Double(days * 86_400 + h * 3_600 + m * 60) + s) * (sign == "-" ? -1 : 1)
  }

  static func instantText(_ instant: Double) -> String {
    CaptureDate(secondsSinceEpoch: Int(instant.rounded()), utcOffsetMinutes: 0).iso8601
  }
}

/// The time zones of positions, from a namer's gazetteer, remembered by position rounded to
/// a hundredth of a degree (about a kilometre) and by name: `--tz auto` asks for the same few
/// zones along a track many times.
public final class PositionZones: Sendable {
  let namer: any PlaceNamer
  private let known = Mutex<(byCell: [Int64: String], byName: [String: TimeZone])>(([:], [:]))

  public init(namer: any PlaceNamer) { self.namer = namer }

  /// The zone a local time taken at `c` is read in; nil when the namer knows none.
  public func zone(at c: Coordinate) -> TimeZone? {
    let cell = Int64((c.latitude * 100).rounded()) * 100_000 + Int64((c.longitude * 100).rounded())
    if let name = known.withLock({ $0.byCell[cell] }) { return known.withLock { $0.byName[name] } }
    guard let name = (try? namer.timeZone(for: c, named: nil))?.identifier, let zone = TimeZone(identifier: name)
    else { return nil }
    known.withLock {
      $0.byCell[cell] = name
      $0.byName[name] = zone
    }
    return zone
  }
}
