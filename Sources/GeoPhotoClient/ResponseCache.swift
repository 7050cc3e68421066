import Foundation

/// An answer kept for revalidation: its ETag, its body and its headers.
struct KeptAnswer: Sendable {
  var etag: String
  var body: Data
  var headers: [String: String]
}

/// The last `capacity` answers that carried an ETag, by URL; the oldest is let go first.
actor ResponseCache {
  private let capacity: Int
  private var answers: [URL: KeptAnswer] = [:]
  private var order: [URL] = []

  init(capacity: Int) { self.capacity = max(0, capacity) }

  func answer(for url: URL) -> KeptAnswer? { answers[url] }

  func keep(_ answer: KeptAnswer, for url: URL) {
    guard capacity > 0 else { return }
    if answers.updateValue(answer, forKey: url) == nil {
      order.append(url)
      if order.count > capacity { answers[order.removeFirst()] = nil }
    }
  }
}
