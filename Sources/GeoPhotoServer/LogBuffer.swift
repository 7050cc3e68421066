import Dispatch
import Foundation
import Synchronization

/// The server's log lines, written off the request path: a request only appends its line to a
/// buffer (a lock held for a copy, never for I/O), and a thread of its own writes what has
/// gathered at least every `interval` and when the log is closed. Lines are appended whole, so
/// they never interleave. A destination that is slow or full blocks only that thread: the
/// buffer fills, lines beyond `capacity` are dropped and counted, and the next write says how
/// many were.
public final class LogBuffer: Sendable {
  private struct State {
    var pending: [UInt8] = []
    var dropped = 0
    var totalDropped = 0
    var closed = false
  }

  private let state = Mutex(State())
  private let capacity: Int
  private let interval: Double
  private let sink: @Sendable ([UInt8]) -> Void
  private let wake = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  /// `sink` receives whole lines, each ending in a newline, a batch at a time, on the log's
  /// own thread.
  public init(capacity: Int = 4 << 20, interval: Double = 0.1, sink: @escaping @Sendable ([UInt8]) -> Void) {
    self.capacity = capacity
    self.interval = interval
    self.sink = sink
    let thread = Thread { [self] in run() }
    thread.name = "geophoto log"
    thread.start()
  }

  /// Adds a line (without its newline); dropped, and counted, when the buffer is full.
  public func append(_ line: String) {
    var bytes = Array(line.utf8)
    bytes.append(0x0A)
    state.withLock { s in
      if s.closed || s.pending.count + bytes.count > capacity {
        s.dropped += 1
      } else {
        s.pending += bytes
      }
    }
  }

  /// Lines dropped so far because the destination did not keep up.
  public var droppedLines: Int { state.withLock { $0.totalDropped + $0.dropped } }

  /// Writes what is left and stops the log's thread; lines appended after are dropped.
  public func close() {
    let first = state.withLock { s in
      defer { s.closed = true }
      return !s.closed
    }
    guard first else { return }
    wake.signal()
    finished.wait()
  }

  private func run() {
    while true {
      _ = wake.wait(timeout: .now() + interval)
      let closed = flush()
      if closed {
        finished.signal()
        return
      }
    }
  }

  /// Hands what has gathered to the sink; true once the log is closed.
  private func flush() -> Bool {
    let (batch, dropped, closed) = state.withLock { s in
      let taken = (s.pending, s.dropped, s.closed)
      s.pending = []
      s.pending.reserveCapacity(min(capacity, max(4_096, taken.0.count)))
      s.totalDropped += s.dropped
      s.dropped = 0
      return taken
    }
    var out = batch
    if dropped > 0 {
      out += Array("log: \(dropped) lines dropped: the log's destination did not keep up\n".utf8)
    }
    if !out.isEmpty { sink(out) }
    return closed
  }
}
