public import GeoPhotoCore
import GeoPhotoTracks

/// A check of the camera's clock (`--sync`): a photo and the true time it shows (say, of a
/// phone's clock: `IMG_0042.JPG=2024-05-02T10:41:00+01:00`, or just `=10:41`), or the place it
/// was taken (`IMG_0042.JPG@38.7106,-9.1410`, or a place name), whose moment the track knows.
public struct SyncPoint: Equatable, Sendable {
  public enum Truth: Equatable, Sendable {
    /// The time shown, as given.
    case time(String)
    /// Where it was taken, as given: a coordinate or a place.
    case place(String)
  }

  public var photo: String
  public var truth: Truth

  public struct Unknown: Error, CustomStringConvertible {
    public var description: String
  }

  /// `PHOTO=TIME` or `PHOTO@LAT,LON|PLACE`.
  public init(parsing text: String) throws(Unknown) {
    if let equals = text.lastIndex(of: "=") {
      photo = String(text[..<equals])
      truth = .time(String(text[text.index(after: equals)...]))
    } else if let at = text.lastIndex(of: "@") {
      photo = String(text[..<at])
      truth = .place(String(text[text.index(after: at)...]))
    } else {
      throw Unknown(description: "expected PHOTO=TIME or PHOTO@LAT,LON (or a place)")
    }
    guard !photo.isEmpty else { throw Unknown(description: "no photo before the = or @") }
    switch truth {
    case .time(let t), .place(let t):
      guard !t.isEmpty else { throw Unknown(description: "nothing after the = or @") }
    }
  }

  /// The true instant of a time given for a photo whose camera showed the local time
  /// `cameraLocal` (seconds since 1970 as if UTC) in a zone `offsetMinutes` east of UTC: a full
  /// date and time with a zone, or without one (then in the camera's offset), or a time of day
  /// alone (then on the day that puts it nearest the camera's time). Nil for text that is no time.
  public static func instant(of text: String, cameraLocal: Int, offsetMinutes: Int) -> Double? {
    if let full = TrackTime(text) {
      return full.zoned ? full.seconds : full.seconds - Double(offsetMinutes * 60)
    }
    // HH:MM or HH:MM:SS.
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count),
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) && $0.count <= 2 }),
      let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60
    else { return nil }
    let s = parts.count == 3 ? Int(parts[2]) ?? 60 : 0
    guard s < 60 else { return nil }
    let day = cameraLocal - ((cameraLocal % 86_400) + 86_400) % 86_400
    let candidates = [day - 86_400, day, day + 86_400].map { $0 + h * 3_600 + m * 60 + s }
    let local = candidates.min { abs($0 - cameraLocal) < abs($1 - cameraLocal) } ?? day
    return Double(local - offsetMinutes * 60)
  }
}

extension GeotagEngine {
  /// A sync point with its place resolved to a coordinate.
  public enum Check: Sendable {
    case time(String)
    case place(Coordinate)
  }

  /// A sync point that cannot be used, and why.
  public struct SyncProblem: Error, CustomStringConvertible {
    public var description: String
  }

  /// The camera clock's correction from sync points: each photo's camera instant (its
  /// recorded one, or its local time in `zone`) against the true time it shows, or the moment
  /// the track came nearest where it was taken (within `maxGap` of its camera time). One point
  /// is a constant correction; more drift linearly. Also says, for each, what it found.
  public func correction(
    from checks: [(path: String, check: Check)], positions: Positions, zone: CameraZone?, maxGap: Double
  ) throws -> (correction: ClockCorrection, notes: [String]) {
    var points: [(camera: Double, offset: Double)] = []
    var notes: [String] = []
    for (path, check) in checks {
      let name = String(path.split(separator: "/").last ?? "")
      guard let photo = try candidates(.files([path]), including: .all).photos.first else {
        throw SyncProblem(description: "--sync: \(path) is not in the index (sync its folder first)")
      }
      guard let taken = photo.takenAt else { throw SyncProblem(description: "--sync: \(name) has no capture time") }
      let local = taken.localSecondsSinceEpoch
      guard let camera = Self.recordedInstant(of: photo) ?? zone?.instants(ofLocal: local).first else {
        throw SyncProblem(description: "--sync: \(name) has a local time only; give the camera's zone with --tz")
      }
      let offset: Double
      switch check {
      case .time(let text):
        guard let truth = SyncPoint.instant(of: text, cameraLocal: local, offsetMinutes: (local - camera) / 60) else {
          throw SyncProblem(description: "--sync: '\(text)' is not a time (2024-05-02T10:41:00+01:00, 10:41:00)")
        }
        offset = truth - Double(camera)
        notes.append("\(name) shows \(text): \(ClockCorrection.text(offset))")
      case .place(let spot):
        let window = (Double(camera) - maxGap)...(Double(camera) + maxGap)
        guard let pass = positions.timeline.nearestApproach(to: spot, within: window, maxGap: maxGap) else {
          throw SyncProblem(
            description:
              "--sync: the track has no point within --max-gap of \(name)'s time, so cannot say when it was there")
        }
        offset = pass.time - Double(camera)
        var note =
          "\(name) was taken where the track passed \(Int(pass.metres.rounded())) m away: \(ClockCorrection.text(offset))"
        if pass.metres > 200 { note += " (far: check the place)" }
        notes.append(note)
      }
      points.append((Double(camera), offset))
    }
    return (ClockCorrection(checks: points), notes)
  }
}
