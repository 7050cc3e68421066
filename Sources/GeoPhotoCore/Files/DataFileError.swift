public import Foundation

/// A data file geophoto maps (the gazetteer, the basemap, a sectioned file, the spatial index
/// file) that cannot be used, and why, in one line that names the file.
public struct DataFileError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(description: String) { self.description = description }
}

/// A data file read through a memory map: opened from a path or from bytes in the same way
/// (the reader checks every section before use and throws `DataFileError`).
public protocol MappedDataFile {
  /// What the file is, for messages about one read from bytes (`gazetteer`, `basemap`).
  static var kind: String { get }
  init(storage: MappedBytes, name: String) throws
}

extension MappedDataFile {
  /// The file at `url`, mapped.
  public init(contentsOf url: URL) throws { try self.init(storage: try MappedBytes(contentsOf: url), name: url.path) }

  /// The same file from bytes in memory (tests, and files read whole).
  public init(data: Data, name: String = Self.kind) throws { try self.init(storage: MappedBytes(data), name: name) }
}
