/// How a command opens an index.
public enum StoreOpenMode: Sendable, Equatable {
  /// Create the index when there is none; bring its schema up to date.
  case create
  /// An existing index; its schema is brought up to date.
  case readWrite
  /// An existing index, only read and never migrated: for servers, read-only files, read-only
  /// database roles and replicas. An index from an older geophoto is refused (a writing command
  /// upgrades it), as is one from a newer.
  case readOnly
}

/// One kind of index geophoto can keep photos in, registered by the prefixes of the `--db`
/// values it takes: a new backend is a `PhotoStore` and one of these.
public struct StoreBackend: Sendable {
  /// What the index is called in messages: `SQLite`, `PostgreSQL`.
  public var name: String
  /// The value prefixes that name this backend: `sqlite:`, `postgres://`.
  public var prefixes: [String]
  /// Whether a prefix is dropped from the location (`sqlite:PATH` is the file PATH) or kept
  /// (a `postgres://` URL is opened whole).
  public var dropsPrefix: Bool
  /// Whether a value without any known prefix (a plain path) is this backend's.
  public var takesPlainPaths: Bool
  /// Makes something that opens the index at `location` in `mode`, once per call (the server's
  /// reload check calls it again and again; a backend may share a connection pool between them).
  public var opener: @Sendable (_ location: String, _ mode: StoreOpenMode) -> @Sendable () throws -> any PhotoStore
  /// The folder files kept beside the index go in (an imported gazetteer), when the index is
  /// a local file.
  public var localDirectory: @Sendable (_ location: String) -> String?
  /// The location as messages may print it (no password).
  public var redacted: @Sendable (_ location: String) -> String

  public init(
    name: String, prefixes: [String], dropsPrefix: Bool, takesPlainPaths: Bool,
    opener: @escaping @Sendable (String, StoreOpenMode) -> @Sendable () throws -> any PhotoStore,
    localDirectory: @escaping @Sendable (String) -> String? = { _ in nil },
    redacted: @escaping @Sendable (String) -> String = { $0 }
  ) {
    self.name = name
    self.prefixes = prefixes
    self.dropsPrefix = dropsPrefix
    self.takesPlainPaths = takesPlainPaths
    self.opener = opener
    self.localDirectory = localDirectory
    self.redacted = redacted
  }
}

/// Turns a `--db` value (a file path, `sqlite:PATH`, a `postgres://` URL) into a store, by
/// the registered backends.
public struct StoreFactory: Sendable {
  public var backends: [StoreBackend]

  public init(_ backends: [StoreBackend]) { self.backends = backends }

  /// A value's backend and the location it opens (`sqlite:` dropped, `~/` expanded by
  /// `expandTilde` for files); an error for an empty value or an unknown `scheme://`.
  public func resolve(_ value: String, expandTilde: (String) -> String = { $0 }) throws(StoreError) -> (
    backend: StoreBackend, location: String
  ) {
    guard !value.isEmpty else { throw StoreError(.cannotOpen, "the index path is empty") }
    for backend in backends {
      guard let prefix = backend.prefixes.first(where: { value.hasPrefix($0) }) else { continue }
      guard backend.dropsPrefix else { return (backend, value) }
      return (backend, expandTilde(String(value.dropFirst(prefix.count))))
    }
    if let scheme = value.range(of: "://"), !value[..<scheme.lowerBound].contains("/") {
      let known = backends.flatMap { b in b.prefixes.map { b.dropsPrefix ? $0 + "PATH" : $0 + "…" } }
      throw StoreError(
        .cannotOpen,
        "'\(value[..<scheme.upperBound])…' is not an index geophoto knows: use a file path, "
          + known.joined(separator: " or "))
    }
    guard let files = backends.first(where: \.takesPlainPaths) else {
      throw StoreError(.cannotOpen, "no index backend takes file paths")
    }
    return (files, expandTilde(value))
  }

  /// The value in the form `resolve` gives it back: a plain path or a full URL.
  public func normalize(_ value: String, expandTilde: (String) -> String = { $0 }) throws(StoreError) -> String {
    let (backend, location) = try resolve(value, expandTilde: expandTilde)
    return backend.takesPlainPaths && backend.dropsPrefix ? location : value
  }

  /// The index at `value`.
  public func open(_ value: String, mode: StoreOpenMode) throws -> any PhotoStore {
    try opener(value, mode: mode)()
  }

  /// Opens the index at `value` at each call (sharing what the backend can share).
  public func opener(_ value: String, mode: StoreOpenMode) throws -> @Sendable () throws -> any PhotoStore {
    let (backend, location) = try resolve(value)
    return backend.opener(location, mode)
  }

  /// `value` as messages may print it: without a password.
  public func redacted(_ value: String) -> String {
    guard let (backend, location) = try? resolve(value) else { return value }
    return backend.redacted(location)
  }

  /// The folder of the index's side files, when it is a local file.
  public func localDirectory(_ value: String) -> String? {
    guard let (backend, location) = try? resolve(value) else { return nil }
    return backend.localDirectory(location)
  }
}
