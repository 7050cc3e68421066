import Foundation
import Synchronization

/// A few PostgreSQL connections shared by one process's threads.
///
/// Connections open on demand up to `maximumConnections`; a thread that finds them all busy
/// waits up to `acquireTimeout` seconds and then gets an error rather than hanging. A
/// connection the server dropped (a restart, a failover) is closed instead of returned, and
/// the idle ones go with it, since they died the same way; the next caller connects afresh.
public final class PostgresPool: @unchecked Sendable {
  /// Limits and timeouts, in seconds.
  public struct Options: Sendable {
    public var maximumConnections = 4
    /// How long to wait for the server to accept a connection.
    public var connectTimeout = 10
    /// How long a caller waits for a free connection.
    public var acquireTimeout = 30.0
    /// The longest any one statement may run (PostgreSQL's statement_timeout); nil for no limit.
    public var statementTimeout: Int? = 300

    public init() {}
  }

  public let url: String
  public let options: Options
  // Everything below is guarded by `condition`.
  private let condition = NSCondition()
  private var idle: [PostgresConnection] = []
  private var open = 0
  private let schemaChecked = Mutex(false)

  public init(url: String, options: Options = Options()) {
    self.url = url
    self.options = options
  }

  /// Lends `body` a connection of its own for its whole run.
  ///
  /// With `retry`, a call that fails because the connection was lost runs once more on a
  /// fresh one: right for reads and whole transactions, which leave nothing behind when
  /// they fail.
  public func withConnection<T>(retry: Bool = true, _ body: (PostgresConnection) throws -> T) throws -> T {
    let connection = try acquire()
    do {
      let value = try body(connection)
      release(connection)
      return value
    } catch let error as PostgresError where retry && error.isConnectionFailure {
      release(connection)
      let fresh = try acquire()
      defer { release(fresh) }
      return try body(fresh)
    } catch {
      release(connection)
      throw error
    }
  }

  /// How many connections are open now, lent or idle.
  public var openConnections: Int {
    condition.lock()
    defer { condition.unlock() }
    return open
  }

  /// Runs `body` the first time it is called on this pool (the schema check), and again
  /// later only if it failed.
  func once(_ body: () throws -> Void) throws {
    try schemaChecked.withLock { checked in
      guard !checked else { return }
      try body()
      checked = true
    }
  }

  private func acquire() throws -> PostgresConnection {
    let deadline = Date(timeIntervalSinceNow: options.acquireTimeout)
    condition.lock()
    while true {
      if let connection = idle.popLast() {
        condition.unlock()
        return connection
      }
      if open < options.maximumConnections {
        open += 1
        condition.unlock()
        do {
          return try PostgresConnection(
            url: url, connectTimeout: options.connectTimeout, statementTimeout: options.statementTimeout)
        } catch {
          condition.lock()
          open -= 1
          condition.signal()
          condition.unlock()
          throw error
        }
      }
      guard condition.wait(until: deadline) else {
        condition.unlock()
        throw PostgresError(
          "all \(options.maximumConnections) connections to \(redactingPassword(url)) stayed busy for "
            + "\(Int(options.acquireTimeout)) s")
      }
    }
  }

  private func release(_ connection: PostgresConnection) {
    condition.lock()
    var closing: [PostgresConnection] = []
    if connection.isUsable {
      idle.append(connection)
    } else {
      // The server went away: the idle connections are most likely dead too.
      closing = idle
      idle.removeAll()
      open -= 1 + closing.count
    }
    condition.broadcast()
    condition.unlock()
    _ = closing  // closed here, outside the lock, as the array is released
  }
}
