import Dispatch
import Glibc
import Synchronization

/// SIGINT and SIGTERM as a request to stop, for the commands that run until stopped (`serve`,
/// `sync --watch`): the process does not end at once; `body` is called once, when the first
/// arrives, and the command finishes its work in flight and returns.
final class StopSignals {
  private let sources: [any DispatchSourceSignal]

  init(_ body: @escaping @Sendable () -> Void) {
    let once = Mutex(false)
    sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        let first = once.withLock { done in
          defer { done = true }
          return !done
        }
        if first { body() }
      }
      source.resume()
      return source
    }
  }

  /// Waits until one of the signals arrives.
  static func wait() {
    let stop = DispatchSemaphore(value: 0)
    let signals = StopSignals { stop.signal() }
    stop.wait()
    signals.cancel()
  }

  func cancel() { for source in sources { source.cancel() } }
}
