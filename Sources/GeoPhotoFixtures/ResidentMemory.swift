import Foundation

/// What this process holds in memory, as Linux tells it (`/proc/self/smaps`), for tests of
/// what is kept resident.
public enum ResidentMemory {
  /// The resident kilobytes of the mapping that starts at `address` (a file mapped whole is
  /// one mapping); nil when no mapping starts there.
  public static func kilobytes(ofMappingAt address: UnsafeRawPointer) -> Int? {
    // Read to its end (the file says its size is 0).
    guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return nil }
    let smaps = String(decoding: data, as: UTF8.self)
    let start = UInt(bitPattern: address)
    var inMapping = false
    for line in smaps.split(separator: "\n") {
      if let dash = line.firstIndex(of: "-"), let first = line.first, first.isHexDigit,
        let from = UInt(line[..<dash], radix: 16), line[dash...].contains(" ")
      {
        inMapping = from == start
      } else if inMapping, line.hasPrefix("Rss:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
      }
    }
    return nil
  }

  /// This process's resident kilobytes as /proc/self/status gives them: `VmRSS` (now) or
  /// `VmHWM` (the most so far); nil where there is no such file.
  public static func processKilobytes(_ field: String = "VmRSS") -> Int? {
    guard let data = FileHandle(forReadingAtPath: "/proc/self/status")?.readDataToEndOfFile() else { return nil }
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix(field + ":") {
      return Int(line.split { $0 == " " || $0 == "\t" }.dropFirst().first ?? "")
    }
    return nil
  }
}
