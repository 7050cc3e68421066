/// A track file that cannot be read, and where: `day1.nmea:412: …` for a line,
/// `Records.json: byte 812345: …` for a byte offset (JSON), or the file alone.
public struct TrackReadError: Error, Equatable, CustomStringConvertible, Sendable {
  public var name: String
  public var line: Int?
  /// The offset in the file (from 0) where the damage was found, for formats read by bytes.
  public var byte: Int?
  public var message: String

  public init(_ name: String, line: Int? = nil, byte: Int? = nil, _ message: String) {
    self.name = name
    self.line = line
    self.byte = byte
    self.message = message
  }

  public var description: String {
    if let line { return "\(name):\(line): \(message)" }
    if let byte { return "\(name): byte \(byte): \(message)" }
    return "\(name): \(message)"
  }
}
