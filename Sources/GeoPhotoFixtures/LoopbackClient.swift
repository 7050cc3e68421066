import Foundation
import Glibc

/// Plain sockets on loopback, for clients that misbehave as no HTTP library would.
public enum LoopbackClient {
  /// A connected socket from `source` (a loopback address) to 127.0.0.1:`port`, or nil.
  /// Without `waiting`, the socket is non-blocking and its connect only started: a server at
  /// its limit leaves it waiting in the kernel's queue.
  public static func connect(from source: String, port: Int, waiting: Bool = true) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    if !waiting { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, size) }
    }
    guard bound == 0, connected == 0 || (!waiting && errno == EINPROGRESS) else {
      close(fd)
      return nil
    }
    return fd
  }

  /// Up to `count` connections from `source`, each sent `prefix`.
  public static func open(_ count: Int, from source: String, port: Int, sending prefix: String = "") -> [Int32] {
    var fds: [Int32] = []
    for _ in 0..<count {
      guard let fd = connect(from: source, port: port) else { break }
      if !prefix.isEmpty { _ = prefix.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }
      fds.append(fd)
    }
    return fds
  }

  /// Sends `raw` (its UTF-8 bytes, NULs and all) from 127.0.0.1 and reads until the server
  /// closes (at most `seconds`).
  public static func exchange(_ raw: String, port: Int, seconds: Double = 5) -> String {
    guard let fd = connect(from: "127.0.0.1", port: port) else { return "" }
    defer { close(fd) }
    let bytes = Array(raw.utf8)
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { break }
      sent += n
    }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    let deadline =
      DispatchTime.now().uptimeNanoseconds + UInt64((seconds.isFinite ? min(max(seconds, 0), 3_600) : 5) * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) == 1 else { continue }
      let n = recv(fd, &buffer, buffer.count, 0)
      if n <= 0 { break }
      answer += buffer[0..<n]
    }
    return String(decoding: answer, as: UTF8.self)
  }

  /// How many of `fds` the server closes within `seconds`.
  public static func closedByServer(_ fds: [Int32], within seconds: Double = 2) -> Int {
    var closed: Set<Int32> = []
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline && closed.count < fds.count {
      var pollers = fds.filter { !closed.contains($0) }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      guard poll(&pollers, nfds_t(pollers.count), 200) > 0 else { continue }
      for p in pollers where p.revents != 0 {
        var byte: UInt8 = 0
        if recv(p.fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0 { closed.insert(p.fd) }
      }
    }
    return closed.count
  }
}
