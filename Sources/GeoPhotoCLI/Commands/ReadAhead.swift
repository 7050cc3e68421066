import Foundation

/// Calls `produce` on a thread of its own, keeping up to `depth` results ready for the
/// caller: an export reads its next page from the index while the last one is encoded.
///
/// `produce` (and whatever it captures, such as a store) is only ever called on that
/// thread, one call at a time, until it returns nil or throws, or the caller `stop()`s and
/// the thread has finished: that is what makes the unchecked `Sendable` sound.
final class ReadAhead<Item>: @unchecked Sendable {
  private let condition = NSCondition()
  private var ready: [Result<Item?, any Error>] = []
  private var stopped = false
  private var running = true
  private let depth: Int
  private let produce: () throws -> Item?

  init(depth: Int = 2, _ produce: @escaping () throws -> Item?) {
    self.depth = depth
    self.produce = produce
    let thread = Thread { [self] in run() }
    thread.start()
  }

  private func run() {
    while true {
      condition.lock()
      while ready.count >= depth && !stopped { condition.wait() }
      if stopped {
        running = false
        condition.broadcast()
        condition.unlock()
        return
      }
      condition.unlock()
      let result = Result { try produce() }
      condition.lock()
      ready.append(result)
      let finished = (try? result.get()) == nil
      if finished { running = false }
      condition.broadcast()
      condition.unlock()
      if finished { return }
    }
  }

  /// The next item, waiting for it; nil at the end. An error `produce` threw is rethrown.
  func next() throws -> Item? {
    condition.lock()
    defer { condition.unlock() }
    while ready.isEmpty { condition.wait() }
    let result = ready.removeFirst()
    if case .success(.some) = result { condition.broadcast() } else { ready.insert(result, at: 0) }
    return try result.get()
  }

  /// Asks the thread to stop and waits until it has.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    while running { condition.wait() }
    condition.unlock()
  }
}
