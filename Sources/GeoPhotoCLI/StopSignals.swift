import Dispatch
import Glibc
import Synchronization

/// SIGINT and SIGTERM as a request to stop, for the commands that run until stopped (`serve`,
/// `sync --watch`): the process does not end at once; `body` is called once, when the first
/// arrives, and the command finishes its work in flight and returns.
final class StopSignals {
  private let sources: [any DispatchSourceSignal]

  ///
  /// Each source is listening before the signal's default action is turned off: a signal that
  /// arrives while they start ends the process (as it would have), and none is lost. (Ignoring
  /// it first, as the order once was, lost a SIGTERM sent right after `serve` announced itself,
  /// and the server ran on.)
  init(_ body: @escaping @Sendable () -> Void) {
    let once = Mutex(false)
    sources = [SIGINT, SIGTERM].map { number in
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        let first = once.withLock { done in
          defer { done = true }
          return !done
        }
        if first { body() }
      }
      source.resume()
      signal(number, SIG_IGN)
      return source
    }
  }

  /// Listens for the signals now; `wait()` returns when one has arrived (at once if one
  /// already has). Commands start listening before they say they are ready, so a signal sent
  /// as soon as they are is never missed.
  static func listen() -> StopSignals.Waiter { Waiter() }

  /// A stop signal to wait for.
  final class Waiter {
    private let stop = DispatchSemaphore(value: 0)
    private var signals: StopSignals?

    init() {
      let stop = self.stop
      signals = StopSignals { stop.signal() }
    }

    func wait() {
      stop.wait()
      signals?.cancel()
    }
  }

  func cancel() { for source in sources { source.cancel() } }
}
