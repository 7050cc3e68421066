import Foundation

/// Runs the numbered jobs `0..<count` on threads of their own, one per context (each with a
/// store connection of its own, say), and hands their results to the caller in number order:
/// an export reads and encodes its windows of ids on every core and writes them in order.
///
/// At most `ahead` results wait for the caller, so memory stays bounded however fast the
/// threads are. A context is only ever used by its own thread, one job at a time, until the
/// caller `stop()`s and every thread has finished: that is what makes the unchecked
/// `Sendable` sound.
final class OrderedWork<Context, Item>: @unchecked Sendable {
  private let condition = NSCondition()
  private let count: Int
  private let ahead: Int
  private let contexts: [Context]
  private let work: (Context, Int) throws -> Item
  private var results: [Int: Result<Item, any Error>] = [:]
  /// The next job a thread takes, and the next result the caller takes.
  private var nextJob = 0
  private var nextResult = 0
  private var stopped = false
  private var running: Int

  init(jobs count: Int, contexts: [Context], ahead: Int, _ work: @escaping (Context, Int) throws -> Item) {
    precondition(!contexts.isEmpty && ahead >= 1)
    self.count = count
    self.ahead = ahead
    self.contexts = contexts
    self.work = work
    running = contexts.count
    for index in contexts.indices {
      Thread { [self] in run(index) }.start()
    }
  }

  private func run(_ index: Int) {
    while true {
      condition.lock()
      while !stopped && nextJob < count && nextJob >= nextResult + ahead { condition.wait() }
      guard !stopped, nextJob < count else {
        running -= 1
        condition.broadcast()
        condition.unlock()
        return
      }
      let job = nextJob
      nextJob += 1
      condition.unlock()
      let result = Result { try work(contexts[index], job) }
      condition.lock()
      results[job] = result
      condition.broadcast()
      condition.unlock()
    }
  }

  /// The next job's result, waiting for it; nil after the last. An error the job threw is
  /// rethrown.
  func next() throws -> Item? {
    condition.lock()
    defer { condition.unlock() }
    guard nextResult < count else { return nil }
    while results[nextResult] == nil { condition.wait() }
    let result = results.removeValue(forKey: nextResult)
    nextResult += 1
    condition.broadcast()
    return try result?.get()
  }

  /// Asks the threads to take no more jobs and waits until each has finished its own.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    while running > 0 { condition.wait() }
    condition.unlock()
  }
}
