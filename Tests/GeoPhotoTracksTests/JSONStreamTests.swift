import Foundation
import Testing

@testable import GeoPhotoTracks

/// The streaming JSON reader over libyajl: the events of a text whatever its chunks, and the
/// texts it refuses, with the byte where.
@Suite struct JSONStreamTests {
  /// Every event of `bytes` as `depth kind text`, read in chunks of `chunk` bytes (or split
  /// once at `split`).
  func events(_ bytes: [UInt8], chunk: Int = 1 << 18, split: Int? = nil) throws(JSONStreamError) -> [String] {
    var seen: [String] = []
    let stream = JSONStream { event, text, depth in
      let body = String(decoding: text, as: UTF8.self)
      switch event {
      case .startMap: seen.append("\(depth) {")
      case .endMap: seen.append("\(depth) }")
      case .startArray: seen.append("\(depth) [")
      case .endArray: seen.append("\(depth) ]")
      case .key: seen.append("\(depth) key \(body)")
      case .string: seen.append("\(depth) string \(body)")
      case .number: seen.append("\(depth) number \(body)")
      case .bool(let value): seen.append("\(depth) bool \(value)")
      case .null: seen.append("\(depth) null")
      }
      return true
    }
    try bytes.withUnsafeBufferPointer { (all) throws(JSONStreamError) in
      if let split {
        try stream.feed(UnsafeBufferPointer(rebasing: all[..<split]))
        try stream.feed(UnsafeBufferPointer(rebasing: all[split...]))
      } else {
        var start = 0
        while start < all.count {
          let end = min(all.count, start + chunk)
          try stream.feed(UnsafeBufferPointer(rebasing: all[start..<end]))
          start = end
        }
      }
    }
    try stream.finish()
    return seen
  }

  func error(_ text: [UInt8], chunk: Int = 1 << 18) -> JSONStreamError? {
    do {
      _ = try events(text, chunk: chunk)
      return nil
    } catch { return error }
  }

  /// A byte order mark, escapes, a long key, numbers yajl could not hold in a long long, and
  /// every kind of value.
  static let sample: [UInt8] =
    [0xEF, 0xBB, 0xBF]
    + Array(
      """
      {"locations": [{"latitudeE7": 387110200, "longitudeE7": -91425100, "timestamp": "2024-05-02T08:41:00.120Z",
        "big": 99999999999999999999999999, "tiny": -1.5e-300, "escaped": "caf\\u00e9 \\"q\\"\\n",
        "nested": [[], {}, [true, false, null]], "utf8": "Lisboa é bela ☀"}], "end": 0}
      """.utf8)

  static let sampleEvents = [
    "1 {", "1 key locations", "2 [", "3 {", "3 key latitudeE7", "3 number 387110200", "3 key longitudeE7",
    "3 number -91425100", "3 key timestamp", "3 string 2024-05-02T08:41:00.120Z", "3 key big",
    "3 number 99999999999999999999999999", "3 key tiny", "3 number -1.5e-300", "3 key escaped",
    "3 string café \"q\"\n", "3 key nested", "4 [", "5 [", "5 ]", "5 {", "5 }", "5 [", "5 bool true",
    "5 bool false", "5 null", "5 ]", "4 ]", "3 key utf8", "3 string Lisboa é bela ☀", "3 }", "2 ]", "1 key end",
    "1 number 0", "1 }",
  ]

  @Test func theSameEventsWhereverTheChunksEnd() throws {
    #expect(try events(Self.sample) == Self.sampleEvents)
    #expect(try events(Self.sample, chunk: 1) == Self.sampleEvents)
    for split in 0...Self.sample.count {
      #expect(try events(Self.sample, split: split) == Self.sampleEvents, "split at \(split)")
    }
    // Without the mark, and with half a mark (not a mark: refused, at its first byte).
    #expect(try events(Array(Self.sample.dropFirst(3))) == Self.sampleEvents)
    let halfMark = [0xEF, 0xBB] + Array(Self.sample.dropFirst(3))
    #expect(error(halfMark)?.offset == 1)
    #expect(error(halfMark, chunk: 1)?.offset == 1)
  }

  @Test func nestingDeeperThan64IsRefused() throws {
    let deep = { (levels: Int) in
      Array(repeating: UInt8(ascii: "["), count: levels) + Array(repeating: UInt8(ascii: "]"), count: levels)
    }
    #expect(try events(deep(64)).count == 128)
    let refused = try #require(error(deep(65)))
    #expect(refused == JSONStreamError(offset: 65, message: "nested deeper than 64 levels"))
    // A bomb of a million levels stops at the same byte, however it is fed.
    let bomb = Array(repeating: UInt8(ascii: "["), count: 1_000_000)
    #expect(error(bomb)?.offset == 65)
    #expect(error(bomb, chunk: 7)?.offset == 65)
    let maps = Array(String(repeating: "{\"a\":", count: 100).utf8)
    #expect(error(maps) == JSONStreamError(offset: 65 * 5 - 4, message: "nested deeper than 64 levels"))
  }

  @Test func damagedTextSaysWhatAndWhere() {
    // An invalid character: the offset just past it (yajl's bytes consumed), however fed.
    let text = Array(#"{"a": 1, "b": x}"#.utf8)
    #expect(error(text) == JSONStreamError(offset: 15, message: "invalid char in json text."))
    for chunk in [1, 2, 3, 5, 8] { #expect(error(text, chunk: chunk)?.offset == 15, "chunks of \(chunk)") }
    // Bytes that are not UTF-8 in a string, and a NUL.
    #expect(
      error(Array(#"{"a": 1, "b": ""#.utf8) + [0xFF, 0x22, 0x7D])
        == JSONStreamError(offset: 16, message: "invalid bytes in UTF8 string."))
    #expect(error(Array(#"{"a":"x"#.utf8) + [0] + Array(#"y"}"#.utf8))?.message == "invalid character inside string.")
    #expect(error([0]) != nil)
    // Structure.
    #expect(
      error(Array(#"{"a": [1, 2}"#.utf8))
        == JSONStreamError(offset: 12, message: "after array element, I expect ',' or ']'"))
    #expect(error(Array(#"{"a":1} x"#.utf8))?.message == "trailing garbage")
    // Cut short: the file's size.
    #expect(
      error(Array(#"{"a": [1, 2, "abc"#.utf8))
        == JSONStreamError(offset: 17, message: "the file ends inside the JSON text (truncated?)"))
    #expect(error(Array(Self.sample.prefix(100)))?.offset == 100)
    #expect(error([]) == JSONStreamError(offset: 0, message: "no JSON text (the file is empty)"))
    #expect(error(Array("  \n".utf8)) == JSONStreamError(offset: 3, message: "no JSON text (the file is empty)"))
  }

  @Test func longStringsAndNumbersComeWhole() throws {
    // (yajl reads an unfinished token again from its start with each chunk: small chunks of a
    // long token cost their square, one reason tokens are bounded.)
    let long = String(repeating: "é", count: 100_000)
    let digits = String(repeating: "9", count: 50_000)
    let text = Array("[\"\(long)\", -\(digits).5e+99999]".utf8)
    for chunk in [1 << 18, 4_096, 999] {
      #expect(try events(text, chunk: chunk) == ["1 [", "1 string \(long)", "1 number -\(digits).5e+99999", "1 ]"])
    }
  }

  @Test func aTokenLongerThanTheLimitIsRefused() throws {
    // yajl holds an unfinished token whole: past the limit, the reading stops (4 MiB in use).
    let stream = JSONStream(maximumToken: 1_000) { _, _, _ in true }
    let text = Array(("[\"" + String(repeating: "a", count: 5_000)).utf8)
    var refused: JSONStreamError?
    text.withUnsafeBufferPointer { all in
      for start in stride(from: 0, to: all.count, by: 100) {
        do { try stream.feed(UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + 100)])) } catch {
          refused = error as? JSONStreamError
          break
        }
      }
    }
    #expect(refused == JSONStreamError(offset: 1_200, message: "a string, key or number longer than 1000 bytes"))
    #expect(JSONStream.maximumToken == 4 << 20)
  }

  @Test func theHandlerStopsTheReading() {
    var seen = 0
    do {
      try JSONStream.read(Array(#"[1, 2, 3, 4]"#.utf8)) { event, _, _ in
        if event == .number { seen += 1 }
        return seen < 2
      }
      Issue.record("not stopped")
    } catch {
      #expect(error.stopped && error.offset == 5)
    }
    #expect(seen == 2)
  }

  @Test func filesAreReadInChunks() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-json-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // Over two chunks of the file reader.
    let count = 60_000
    let body = (0..<count).map { "{\"n\": \($0), \"s\": \"x\"}" }.joined(separator: ",")
    let file = folder.appendingPathComponent("big.json")
    try Data(("[" + body + "]").utf8).write(to: file)
    var numbers: [Int] = []
    try JSONStream.read(path: file.path) { event, text, _ in
      if event == .number { numbers.append(Int(String(decoding: text, as: UTF8.self)) ?? -1) }
      return true
    }
    #expect(numbers == Array(0..<count))
    // Files that cannot be read: no byte to name.
    #expect(throws: JSONStreamError(offset: nil, message: "not a regular file (a folder)")) {
      try JSONStream.read(path: folder.path) { _, _, _ in true }
    }
    #expect(throws: JSONStreamError(offset: nil, message: "No such file or directory")) {
      try JSONStream.read(path: folder.appendingPathComponent("none").path) { _, _, _ in true }
    }
    #expect(throws: TrackReadError("none.json", "No such file or directory")) {
      try GoogleHistoryReader.read(path: folder.appendingPathComponent("none.json").path, name: "none.json")
    }
  }
}
