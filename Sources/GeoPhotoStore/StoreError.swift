/// What went wrong with an index, worded for the user: never SQL, never a password.
public struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    /// No index there yet (nothing synced).
    case missing
    /// Something there, but not a geophoto index.
    case notAnIndex
    /// The index could not be opened (permissions, a server that is down, …).
    case cannotOpen
    /// Made by a newer geophoto: this one does not write to it.
    case newerSchema
    /// Made by an older geophoto, opened read-only: it needs a writing command to upgrade.
    case olderSchema
    /// Opened to write where nothing can be written (a read-only replica of the database).
    case readOnly
  }

  public var kind: Kind
  public var description: String

  public init(_ kind: Kind, _ description: String) {
    self.kind = kind
    self.description = description
  }
}
