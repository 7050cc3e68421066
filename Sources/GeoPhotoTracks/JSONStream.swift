internal import CGeoPhotoYAJL
import GeoPhotoCore

#if canImport(Glibc)
  import Glibc
#endif

/// What the JSON text holds next, in document order.
enum JSONEvent: Equatable, Sendable {
  case startMap, endMap, startArray, endArray
  /// A member name of a map (its text, unescaped).
  case key
  /// A string value (its text, unescaped).
  case string
  /// A number, as its text in the file (`387110200`, `-9.5e3`): never converted, never overflows.
  case number
  case bool(Bool)
  case null
}

/// JSON text that cannot be read, and where: the number of the file's bytes read when the
/// damage was found (just past the token at fault; the file's size when it ends too soon), or
/// nil when the file itself could not be opened or read.
struct JSONStreamError: Error, Equatable, Sendable {
  var offset: Int?
  var message: String
  /// The handler asked to stop (its own reason is its own business).
  var stopped = false
}

/// A streaming JSON reader over libyajl: bytes go in by chunks of any size, events come out as
/// they complete, each with the text it carries (valid only during the call) and its depth.
///
/// Depth counts the open containers: a map or array starts and ends at its own depth (the root
/// map is 1), a key or a scalar is at the depth of the container holding it (a value of the
/// root map is at 1). Nesting deeper than `maximumDepth` is refused, as is a single token (a
/// string, key or number, which yajl keeps whole) longer than `maximumToken`, so memory stays
/// bounded whatever the file. A UTF-8 byte order mark at the start is skipped; strings must be
/// UTF-8 (yajl checks). Offsets in errors count the file's bytes, the mark included.
final class JSONStream {
  /// Called for every event with its text and depth; false stops the reading.
  typealias Handler = (JSONEvent, UnsafeBufferPointer<UInt8>, Int) -> Bool

  static let maximumDepth = 64
  /// The longest string, key or number: yajl holds an unfinished one whole, and reads it again
  /// from its start with each chunk (so a token of many chunks costs their square).
  static let maximumToken = 4 << 20
  static let chunkSize = 256 << 10

  /// What the callbacks change at every event, behind a pointer (no exclusivity check each time).
  fileprivate struct Counters {
    /// The open containers.
    var depth = 0
    var events = 0
    /// The file offset of the first byte of the chunk yajl is reading.
    var base = 0
    /// An error found by a callback (too deep), reported when yajl returns.
    var failure: JSONStreamError?
  }

  private var parser: yajl_handle?
  fileprivate let handler: Handler
  fileprivate let counters = UnsafeMutablePointer<Counters>.allocate(capacity: 1)
  /// The first bytes, held until a byte order mark is ruled in or out.
  private var head: [UInt8] = []
  private var headDone = false
  private var eventsBefore = 0
  private var bytesWithoutEvent = 0
  private let tokenLimit: Int

  init(maximumToken: Int = JSONStream.maximumToken, _ handler: @escaping Handler) {
    self.handler = handler
    tokenLimit = maximumToken
    counters.initialize(to: Counters())
    parser = yajl_alloc(jsonCallbacks, nil, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    if let parser { yajl_free(parser) }
    counters.deinitialize(count: 1)
    counters.deallocate()
  }

  /// The open containers.
  var depth: Int { counters.pointee.depth }

  private var base: Int {
    get { counters.pointee.base }
    set { counters.pointee.base = newValue }
  }

  private var events: Int { counters.pointee.events }

  /// The offset in the file just past the token being reported (during a handler call), or
  /// read so far.
  var offset: Int { base + (parser.map { Int(yajl_get_bytes_consumed($0)) } ?? 0) }

  /// Reads the next bytes of the text.
  func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONStreamError) {
    var rest = bytes[...]
    if !headDone {
      let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
      while head.count < 3, let byte = rest.first, byte == mark[head.count] {
        head.append(byte)
        rest = rest.dropFirst()
      }
      if head.count == 3 {
        base = 3
      } else if rest.isEmpty {
        return  // a mark's beginning, or nothing yet: more bytes decide
      } else {
        // Not a mark: the bytes held are text.
        let held = head
        try held.withUnsafeBufferPointer { (held) throws(JSONStreamError) in try parse(held) }
      }
      head = []
      headDone = true
    }
    try parse(UnsafeBufferPointer(rebasing: rest))
  }

  /// Ends the text: what remains must complete the document.
  func finish() throws(JSONStreamError) {
    if !headDone {
      let held = head
      head = []
      headDone = true
      try held.withUnsafeBufferPointer { (held) throws(JSONStreamError) in try parse(held) }
    }
    guard let parser else { throw JSONStreamError(offset: base, message: "out of memory") }
    let status = yajl_complete_parse(parser)
    try check(status, end: true)
  }

  private func parse(_ chunk: UnsafeBufferPointer<UInt8>) throws(JSONStreamError) {
    guard let address = chunk.baseAddress, chunk.count > 0 else { return }
    guard let parser else { throw JSONStreamError(offset: base, message: "out of memory") }
    let status = yajl_parse(parser, address, chunk.count)
    try check(status, end: false)
    // yajl holds an unfinished token whole; one that goes on and on is refused.
    if events == eventsBefore {
      bytesWithoutEvent += chunk.count
      if bytesWithoutEvent > tokenLimit {
        let size = tokenLimit >= 1 << 20 ? "\(tokenLimit >> 20) MiB" : "\(tokenLimit) bytes"
        throw JSONStreamError(offset: base + chunk.count, message: "a string, key or number longer than \(size)")
      }
    } else {
      bytesWithoutEvent = 0
      eventsBefore = events
    }
    base += chunk.count
  }

  private func check(_ status: yajl_status, end: Bool) throws(JSONStreamError) {
    guard status != yajl_status_ok, let parser else { return }
    let at = end ? base : offset
    if let failure = counters.pointee.failure { throw failure }
    if status == yajl_status_client_canceled { throw JSONStreamError(offset: at, message: "stopped", stopped: true) }
    var message = "not JSON"
    if let text = yajl_get_error(parser, 0, nil, 0) {
      message = String(cString: text)
      yajl_free_error(parser, text)
    }
    message = message.trimmingTrailingWhitespace()
    if message.hasPrefix("parse error: ") { message.removeFirst(13) }
    if message.hasPrefix("lexical error: ") { message.removeFirst(15) }
    if end && message == "premature EOF" {
      message = events == 0 ? "no JSON text (the file is empty)" : "the file ends inside the JSON text (truncated?)"
    }
    throw JSONStreamError(offset: at, message: message)
  }

  // The callbacks' Swift side.

  fileprivate func open(_ event: JSONEvent) -> Bool {
    counters.pointee.depth += 1
    let depth = counters.pointee.depth
    guard depth <= Self.maximumDepth else {
      counters.pointee.failure = JSONStreamError(
        offset: offset, message: "nested deeper than \(Self.maximumDepth) levels")
      return false
    }
    counters.pointee.events += 1
    return handler(event, UnsafeBufferPointer(start: nil, count: 0), depth)
  }

  fileprivate func close(_ event: JSONEvent) -> Bool {
    counters.pointee.events += 1
    let going = handler(event, UnsafeBufferPointer(start: nil, count: 0), counters.pointee.depth)
    counters.pointee.depth -= 1
    return going
  }

  fileprivate func value(_ event: JSONEvent, _ text: UnsafeRawPointer?, _ count: Int) -> Bool {
    counters.pointee.events += 1
    return handler(
      event, UnsafeBufferPointer(start: text?.assumingMemoryBound(to: UInt8.self), count: count),
      counters.pointee.depth)
  }

  /// Reads the file at `path` through `handler`, by chunks of `chunkSize`.
  static func read(path: String, _ handler: @escaping Handler) throws(JSONStreamError) {
    let file: ReadableFile
    do { file = try ReadableFile(path: path) } catch { throw JSONStreamError(offset: nil, message: error.description) }
    let stream = JSONStream(handler)
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
    defer { buffer.deallocate() }
    while true {
      let count = Glibc.read(file.fd, buffer.baseAddress, chunkSize)
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw JSONStreamError(offset: nil, message: String(cString: strerror(errno)))
      }
      if count == 0 { break }
      try stream.feed(UnsafeBufferPointer(rebasing: buffer[..<count]))
    }
    try stream.finish()
  }

  /// Reads `bytes` through `handler`, fed in chunks of `chunkSize` bytes.
  static func read(_ bytes: [UInt8], chunkSize: Int = chunkSize, _ handler: @escaping Handler)
    throws(JSONStreamError)
  {
    let stream = JSONStream(handler)
    try bytes.withUnsafeBufferPointer { (all) throws(JSONStreamError) in
      var start = 0
      while start < all.count {
        let end = min(all.count, start + max(1, chunkSize))
        try stream.feed(UnsafeBufferPointer(rebasing: all[start..<end]))
        start = end
      }
    }
    try stream.finish()
  }
}

extension String {
  fileprivate func trimmingTrailingWhitespace() -> String {
    var text = self
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return text
  }
}

/// Calls `body` with the stream a callback's context points to; 1 to go on, 0 to stop.
private func with(_ context: UnsafeMutableRawPointer?, _ body: (JSONStream) -> Bool) -> Int32 {
  guard let context else { return 0 }
  // The stream outlives its parser's callbacks: no retain for each.
  return Unmanaged<JSONStream>.fromOpaque(context)._withUnsafeGuaranteedRef(body) ? 1 : 0
}

/// yajl keeps a pointer to its callbacks: one table, for the life of the process.
nonisolated(unsafe) private let jsonCallbacks: UnsafeMutablePointer<yajl_callbacks> = {
  let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
  table.initialize(
    to: yajl_callbacks(
      yajl_null: { with($0) { $0.value(.null, nil, 0) } },
      yajl_boolean: { context, value in with(context) { $0.value(.bool(value != 0), nil, 0) } },
      yajl_integer: nil,
      yajl_double: nil,
      yajl_number: { context, text, count in with(context) { $0.value(.number, text, count) } },
      yajl_string: { context, text, count in with(context) { $0.value(.string, text, count) } },
      yajl_start_map: { with($0) { $0.open(.startMap) } },
      yajl_map_key: { context, text, count in with(context) { $0.value(.key, text, count) } },
      yajl_end_map: { with($0) { $0.close(.endMap) } },
      yajl_start_array: { with($0) { $0.open(.startArray) } },
      yajl_end_array: { with($0) { $0.close(.endArray) } }
    ))
  return table
}()
