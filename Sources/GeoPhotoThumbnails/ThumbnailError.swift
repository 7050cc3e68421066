/// Why a thumbnail could not be made from a file.
public enum ThumbnailError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not an image its format's decoder can read.
  case unreadable(String)
  /// The decoder or encoder failed on it.
  case decoder(String)
  /// More pixels than a thumbnail is worth decoding (a decompression bomb, say).
  case tooLarge(width: Int, height: Int, limit: Int)
  /// A format geophoto does not decode for thumbnails (its embedded thumbnail may serve).
  case unsupported(String)
  /// The file cannot be opened or read.
  case file(String)

  public var description: String {
    switch self {
    case .unreadable(let why), .decoder(let why), .file(let why): return why
    case .tooLarge(let width, let height, let limit):
      return "\(width) × \(height) pixels, beyond the \(limit / 1_000_000) megapixels a thumbnail is made from"
    case .unsupported(let format): return "no thumbnail decoder for \(format)"
    }
  }
}
