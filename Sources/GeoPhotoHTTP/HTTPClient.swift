internal import CGeoPhotoCurl
import Foundation
public import GeoPhotoCore
import Synchronization

/// An HTTP response with its body in memory.
public struct HTTPResponse: Sendable {
  public var status: Int
  /// Header names in lower case; the last value wins.
  public var headers: [String: String]
  public var body: [UInt8]

  public init(status: Int, headers: [String: String] = [:], body: [UInt8]) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Settings shared by every request of a client.
public struct HTTPClientOptions: Sendable {
  public var connectTimeout: Double = 10
  public var timeout: Double = 30
  /// Bodies larger than this are refused (20 MiB by default).
  public var maximumResponseBytes = 20 * 1024 * 1024
  public var userAgent: String
  public var redactor = Redactor()

  public init(userAgent: String) { self.userAgent = userAgent }
}

/// A small HTTP client over libcurl, used by every remote provider.
///
/// TLS verification is always on, connections are reused between requests of one client,
/// gzip and deflate are accepted, the proxy environment (`https_proxy`, `no_proxy`, …) is
/// honoured, and only http and https URLs are followed. One request runs at a time per client
/// (the libcurl handle is not shared between threads); use one client per provider.
public final class HTTPClient: Sendable {
  public let options: HTTPClientOptions
  private let handle: Mutex<EasyHandle>

  public init(options: HTTPClientOptions) throws(HTTPError) {
    _ = HTTPClient.globalInit
    guard let easy = EasyHandle() else {
      throw HTTPError(.transport(code: -1), "cannot create an HTTP handle")
    }
    self.options = options
    self.handle = Mutex(easy)
  }

  /// curl_global_init must run once, before any thread uses libcurl.
  private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

  /// One GET, no retries. Non-2xx statuses are returned, not thrown; transport failures throw.
  public func get(_ url: String, headers: [String: String] = [:]) throws(HTTPError) -> HTTPResponse {
    let result = handle.withLock { easy in easy.perform(url: url, headers: headers, options: options) }
    return try result.get()
  }
}

/// Collects a response inside libcurl's callbacks.
private final class ResponseCollector {
  var body: [UInt8] = []
  var headers: [String: String] = [:]
  var limit = 0
  var overflow = false
}

/// Owns one CURL easy handle; cleaned up when released.
private struct EasyHandle: ~Copyable {
  let curl: UnsafeMutableRawPointer

  init?() {
    guard let curl = curl_easy_init() else { return nil }
    self.curl = curl
  }

  deinit { curl_easy_cleanup(curl) }

  func perform(url: String, headers: [String: String], options: HTTPClientOptions) -> Result<
    HTTPResponse, HTTPError
  > {
    let collector = ResponseCollector()
    collector.limit = options.maximumResponseBytes
    var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    var list: UnsafeMutablePointer<curl_slist>?
    for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
    defer { curl_slist_free_all(list) }

    // Options are reset for every request; the connection cache survives the reset.
    curl_easy_reset(curl)
    gp_curl_setopt_string(curl, CURLOPT_URL, url)
    gp_curl_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
    gp_curl_setopt_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
    gp_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 1)
    gp_curl_setopt_long(curl, CURLOPT_MAXREDIRS, 5)
    gp_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
    gp_curl_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
    gp_curl_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
    gp_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(options.connectTimeout * 1000))
    gp_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(options.timeout * 1000))
    gp_curl_setopt_string(curl, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes
    gp_curl_setopt_string(curl, CURLOPT_USERAGENT, options.userAgent)
    gp_curl_setopt_off_t(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maximumResponseBytes))
    gp_curl_setopt_slist(curl, CURLOPT_HTTPHEADER, list)
    gp_curl_setopt_long(curl, CURLOPT_FAILONERROR, 0)

    let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
      gp_curl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, errors.baseAddress)
      return withExtendedLifetime(collector) {
        let context = Unmanaged.passUnretained(collector).toOpaque()
        gp_curl_setopt_callback(curl, CURLOPT_WRITEFUNCTION, writeCallback)
        gp_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, context)
        gp_curl_setopt_callback(curl, CURLOPT_HEADERFUNCTION, headerCallback)
        gp_curl_setopt_pointer(curl, CURLOPT_HEADERDATA, context)
        let code = curl_easy_perform(curl)
        gp_curl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, nil)
        return code
      }
    }
    let shown = options.redactor.redact(url)
    if code != CURLE_OK {
      let detail = errorBuffer.withUnsafeBufferPointer { buffer -> String in
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? String(cString: curl_easy_strerror(code)) : text
      }
      let reason = options.redactor.redact(detail)
      switch code {
      case CURLE_OPERATION_TIMEDOUT:
        return .failure(HTTPError(.timeout, "request to \(shown) timed out (\(reason))"))
      case CURLE_FILESIZE_EXCEEDED:
        return .failure(tooLarge(shown, options))
      case CURLE_WRITE_ERROR where collector.overflow:
        return .failure(tooLarge(shown, options))
      case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
        return .failure(HTTPError(.truncated, "the response from \(shown) was cut short (\(reason))"))
      default:
        return .failure(
          HTTPError(.transport(code: Int(code.rawValue)), "request to \(shown) failed: \(reason)"))
      }
    }
    var status = 0
    gp_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
    return .success(HTTPResponse(status: status, headers: collector.headers, body: collector.body))
  }

  private func tooLarge(_ url: String, _ options: HTTPClientOptions) -> HTTPError {
    let mib = Double(options.maximumResponseBytes) / 1_048_576
    return HTTPError(
      .tooLarge(limit: options.maximumResponseBytes),
      "the response from \(url) is larger than the \(String(format: "%g", mib)) MiB limit")
  }
}

private let writeCallback: gp_curl_data_callback = { data, size, count, context in
  guard let context, let data else { return 0 }
  let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
  let n = size * count
  if collector.body.count + n > collector.limit {
    collector.overflow = true
    return 0  // anything but n aborts the transfer
  }
  data.withMemoryRebound(to: UInt8.self, capacity: n) {
    collector.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
  }
  return n
}

private let headerCallback: gp_curl_data_callback = { data, size, count, context in
  guard let context, let data else { return 0 }
  let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
  let n = size * count
  let line = data.withMemoryRebound(to: UInt8.self, capacity: n) {
    String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self)
  }
  if line.hasPrefix("HTTP/") {
    collector.headers.removeAll()  // a new response (after a redirect or 100 Continue)
  } else if let colon = line.firstIndex(of: ":") {
    let name = line[..<colon].lowercased()
    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
    collector.headers[name] = value
  }
  return n
}
