import Foundation
import GeoPhotoCore
import Synchronization

/// How many builds for filters (cluster hierarchies, photo sets) run at once, across every
/// snapshot of a server: past the limit a request that needs one more is answered 503 at
/// once, so a crowd of distinct filters costs a bounded amount of CPU and memory and light
/// requests keep being answered.
public final class BuildSlots: Sendable {
  public let limit: Int
  private let running = Mutex(0)

  /// `limit` builds at once (default: the core count).
  public init(limit: Int? = nil) { self.limit = max(1, limit ?? ProcessInfo.processInfo.activeProcessorCount) }

  /// Takes a slot when one is free.
  func take() -> Bool {
    running.withLock { count in
      guard count < limit else { return false }
      count += 1
      return true
    }
  }

  func give() { running.withLock { $0 -= 1 } }

  /// Builds running now.
  public var inUse: Int { running.withLock { $0 } }
}

/// What a snapshot built for the last few filters, shared by the requests that ask for them:
/// one build per filter at a time (the others asking wait for it, and take its result), a
/// slot from `BuildSlots` for each, and what is kept bounded by count and by the bytes the
/// builds hold (least recently used out). What falls out is built again when needed.
final class FilterBuilds<Value: Sendable>: @unchecked Sendable {
  static var capacity: Int { 8 }

  private let condition = NSCondition()
  /// Built values, most recently used last, with the bytes each holds.
  private var ready: [(filter: PhotoFilter, value: Value, cost: Int)] = []
  private var building: Set<PhotoFilter> = []
  /// Requests waiting for another's build now.
  private var waiting = 0
  private let slots: BuildSlots
  /// The most bytes the kept values may hold together.
  private let budget: Int

  init(slots: BuildSlots, budget: Int) {
    self.slots = slots
    self.budget = max(1, budget)
  }

  /// The value built for `filter`, when one is kept (no waiting, no build).
  func cached(_ filter: PhotoFilter) -> Value? {
    condition.lock()
    defer { condition.unlock() }
    return take(filter)
  }

  /// How many requests wait for another's build now.
  var waiters: Int {
    condition.lock()
    defer { condition.unlock() }
    return waiting
  }

  private func take(_ filter: PhotoFilter) -> Value? {
    guard let i = ready.firstIndex(where: { $0.filter == filter }) else { return nil }
    let entry = ready.remove(at: i)
    ready.append(entry)
    return entry.value
  }

  /// The value for `filter`: kept, or being built by another request (waited for), or built
  /// now with a slot; `BuildsBusy` when no slot is free.
  func value(for filter: PhotoFilter, build: () throws -> (value: Value, cost: Int)) throws -> Value {
    condition.lock()
    while true {
      if let value = take(filter) {
        condition.unlock()
        return value
      }
      guard building.contains(filter) else { break }
      waiting += 1
      condition.wait()
      waiting -= 1
    }
    guard slots.take() else {
      condition.unlock()
      throw BuildsBusy(limit: slots.limit)
    }
    building.insert(filter)
    condition.unlock()
    defer { slots.give() }
    let made: (value: Value, cost: Int)
    do {
      made = try build()
    } catch {
      finish(filter, nil)
      throw error
    }
    finish(filter, made)
    return made.value
  }

  private func finish(_ filter: PhotoFilter, _ made: (value: Value, cost: Int)?) {
    condition.lock()
    defer { condition.unlock() }
    building.remove(filter)
    if let made {
      ready.append((filter, made.value, made.cost))
      var total = ready.reduce(0) { $0 + $1.cost }
      while ready.count > 1, ready.count > Self.capacity || total > budget {
        total -= ready.removeFirst().cost
      }
    }
    condition.broadcast()
  }
}

/// Every build slot is taken: the request is answered 503, to be tried again shortly.
struct BuildsBusy: Error, CustomStringConvertible {
  var limit: Int
  var description: String { "the server is building for \(limit) other filters; try again in a moment" }
}
