import Dispatch
import Foundation
import Synchronization
import Testing

@testable import GeoPhotoServer

@Suite struct LogBufferTests {
  final class Received: Sendable {
    let bytes = Mutex<[UInt8]>([])
    var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }
  }

  @Test func linesArriveWholeInOrderFromManyThreads() {
    let received = Received()
    let log = LogBuffer { batch in received.bytes.withLock { $0 += batch } }
    DispatchQueue.concurrentPerform(iterations: 8) { t in
      for i in 0..<2_000 { log.append("thread \(t) line \(i) " + String(repeating: "x", count: i % 50)) }
    }
    log.close()
    let lines = received.text.split(separator: "\n")
    #expect(lines.count == 16_000)
    // Each thread's lines whole and in its order.
    for t in 0..<8 {
      let mine = lines.filter { $0.hasPrefix("thread \(t) ") }
      #expect(mine.count == 2_000)
      #expect(
        mine.enumerated().allSatisfy { i, line in
          line == "thread \(t) line \(i) " + String(repeating: "x", count: i % 50)
        })
    }
    #expect(log.droppedLines == 0)
  }

  @Test func aLineIsWrittenWithoutWaitingForClose() {
    let received = Received()
    let written = DispatchSemaphore(value: 0)
    let log = LogBuffer(interval: 0.05) { batch in
      received.bytes.withLock { $0 += batch }
      written.signal()
    }
    defer { log.close() }
    log.append("GET /healthz 200 45 12µs")
    #expect(written.wait(timeout: .now() + 30) == .success)
    #expect(received.text == "GET /healthz 200 45 12µs\n")
  }

  @Test func aStuckDestinationDropsAndCountsLinesInsteadOfBlocking() {
    let received = Received()
    let release = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)
    let stuck = Mutex(true)
    let log = LogBuffer(capacity: 10_000, interval: 0.01) { batch in
      // The first write blocks, as a full pipe would, until the test lets it go.
      if stuck.withLock({ $0 }) {
        entered.signal()
        release.wait()
      }
      received.bytes.withLock { $0 += batch }
    }
    log.append("first")
    #expect(entered.wait(timeout: .now() + 30) == .success)
    // Appending goes on while the writer is stuck: the buffer fills, then lines are dropped.
    for i in 0..<5_000 { log.append("line \(i) of the burst") }
    #expect(log.droppedLines > 0)
    stuck.withLock { $0 = false }
    release.signal()
    log.close()
    let text = received.text
    #expect(text.hasPrefix("first\n"))
    #expect(text.contains("lines dropped: the log's destination did not keep up"))
    // Every line that was kept is whole.
    for line in text.split(separator: "\n").dropFirst() {
      #expect(line.hasPrefix("line ") || line.hasPrefix("log: "), "\(line)")
    }
  }
}
