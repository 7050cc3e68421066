import Foundation
import GeoPhotoCore

/// The options that choose which photos a query takes, the same on every command that
/// lists photos: `--source`, `--since`, `--until`, `--on`, `--camera`, `--text`.
enum FilterOptions {
  static let since = CommandSpec.Option(
    long: "since", valueName: "time",
    help: "Only photos taken in or after this year, month, day or date-time (2024, 2024-05, 2024-05-03, "
      + "2024-05-03T14:30+09:00); without an offset, in each photo's local time.")
  static let until = CommandSpec.Option(
    long: "until", valueName: "time",
    help: "Only photos taken in or before this year, month, day or date-time (the whole period it names).")
  static let on = CommandSpec.Option(
    long: "on", valueName: "day", help: "Only photos taken on this day (YYYY-MM-DD), in each photo's local time.")

  static let camera = CommandSpec.Option(
    long: "camera", valueName: "text", help: "Only photos whose camera make or model contains this text (any case).")

  static let text = CommandSpec.Option(
    long: "text", valueName: "words",
    help: "Only photos whose title, description, keywords, place, camera, file name or owner hold every word "
      + "(any case and accents; a word matches the start of a word; \"quoted phrases\"; Chinese and Japanese text "
      + "anywhere).")

  /// All of them, for a command's option list.
  static let options = [RemoteSources.sourceOption, since, until, on, camera, text]

  /// The filter the options name; a bad value is a usage error naming the option.
  static func filter(_ parsed: ParsedArguments) throws -> PhotoFilter {
    func bound(_ option: CommandSpec.Option, day: Bool = false) throws -> TimeBound? {
      guard let text = parsed.value(option.long) else { return nil }
      do {
        return day ? try TimeBound.day(text) : try TimeBound(text)
      } catch {
        throw UsageError("The value '\(text)' is invalid for '--\(option.long) <\(option.valueName ?? "")>': \(error)")
      }
    }
    let time: TimeRange?
    do {
      time = try TimeRange.named(since: try bound(since), until: try bound(until), on: try bound(on, day: true))
    } catch let conflict as TimeRange.Conflict {
      switch conflict {
      case .dayWithBounds: throw UsageError("'--on' names a whole day: use it without '--since' and '--until'")
      case .sinceAfterUntil(let from, let to):
        throw UsageError("'--since \(from)' is after '--until \(to)': no photo can match")
      }
    }
    var cameraText: String?
    if let text = parsed.value(camera.long) {
      cameraText = text.trimmingCharacters(in: .whitespaces)
      guard cameraText?.isEmpty == false else {
        throw UsageError("The value '\(text)' is invalid for '--camera <text>': expected part of a make or model")
      }
    }
    var words: TextQuery?
    if let value = parsed.value(text.long) {
      do {
        words = try TextQuery(value)
      } catch {
        throw UsageError("The value '\(value)' is invalid for '--text <words>': \(error)")
      }
    }
    return PhotoFilter(sources: try RemoteSources.selected(parsed), time: time, camera: cameraText, text: words)
  }
}
