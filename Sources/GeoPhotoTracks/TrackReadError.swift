/// A track file that cannot be read, and where: `day1.nmea:412: …`, or the file alone.
public struct TrackReadError: Error, Equatable, CustomStringConvertible, Sendable {
  public var name: String
  public var line: Int?
  public var message: String

  public init(_ name: String, line: Int? = nil, _ message: String) {
    self.name = name
    self.line = line
    self.message = message
  }

  public var description: String { line.map { "\(name):\($0): \(message)" } ?? "\(name): \(message)" }
}
