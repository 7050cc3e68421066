internal import CGeoPhotoZlib
public import GeoPhotoCore

/// Tiles and PMTiles directories as stored: gzip (as the specifications say), zlib (some
/// MBTiles writers), or not compressed at all (tippecanoe's `-pC`). zlib tells gzip and zlib
/// apart by their headers; the output is capped, so a small bomb cannot grow without bound.
public enum Gzip {
  /// Whether `bytes` start like a gzip or zlib stream.
  public static func isCompressed(_ bytes: some Collection<UInt8>) -> Bool {
    var i = bytes.makeIterator()
    guard let a = i.next(), let b = i.next() else { return false }
    if a == 0x1F && b == 0x8B { return true }
    // zlib: deflate with a window of at most 32 KiB, and a header checksum.
    return a & 0x0F == 8 && a >> 4 <= 7 && (UInt16(a) << 8 | UInt16(b)) % 31 == 0
  }

  /// `bytes` inflated (gzip or zlib, by their header), at most `limit` bytes of output; damage
  /// naming `what` when they are not a whole stream or would grow past the limit.
  public static func inflate(_ bytes: ArraySlice<UInt8>, limit: Int, _ what: String) throws(DataDamage) -> [UInt8] {
    guard bytes.count < Int(UInt32.max) else { throw DataDamage("\(what) is larger than 4 GiB") }
    var stream = z_stream()
    guard geophoto_inflate_init(&stream, 15 + 32) == Z_OK else { throw DataDamage("\(what): zlib could not start") }
    defer { inflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: min(limit, max(4_096, bytes.count * 4)))
    var produced = 0
    var status = Z_OK
    let input = Array(bytes)
    return try input.withUnsafeBufferPointer { (source) throws(DataDamage) -> [UInt8] in
      stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
      stream.avail_in = UInt32(source.count)
      while true {
        if produced == output.count {
          guard output.count < limit else { throw DataDamage("\(what) inflates past \(limit >> 20) MiB") }
          output.append(contentsOf: repeatElement(0, count: min(output.count, limit - output.count)))
        }
        status = output.withUnsafeMutableBufferPointer { buffer in
          stream.next_out = buffer.baseAddress.map { $0 + produced }
          stream.avail_out = UInt32(buffer.count - produced)
          let before = stream.avail_out
          let result = CGeoPhotoZlib.inflate(&stream, Z_NO_FLUSH)
          produced += Int(before - stream.avail_out)
          return result
        }
        if status == Z_STREAM_END { break }
        guard status == Z_OK else { throw DataDamage("\(what) is not a whole gzip stream") }
        // No progress with input left means the input ended early.
        if stream.avail_in == 0 && stream.avail_out > 0 { throw DataDamage("\(what): the gzip stream ends early") }
      }
      output.removeSubrange(produced...)
      return output
    }
  }
}
