import Foundation
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoStore
internal import Glibc

/// Reads one photo file for the index: its metadata (whatever its `PhotoFormat`) and its
/// content hash. A JPEG is read from its first 256 KiB (more only when its headers go on), the
/// other formats' readers fetch the boxes or chunks they need; the hash takes the first and
/// last 64 KiB.
enum PhotoFileReader {
  /// Bytes read up front; holds the EXIF segment of practically every camera file.
  static let headSize = 256 * 1024
  /// Headers longer than this are not followed (a JPEG's APP segments are 64 KiB each).
  static let maximumHeaderBytes = 16 * 1024 * 1024

  /// What reading one file gave: its record, and a warning about a sidecar that could not be
  /// used (the photo itself was read).
  struct Read {
    var record: PhotoRecord
    var warning: String?
  }

  /// The record for `file`; unreadable or malformed files come back with `problem` set.
  static func read(_ file: FoundFile) -> Read {
    var warning: String?
    let record: PhotoRecord = read(file, warning: &warning)
    return Read(record: record, warning: warning)
  }

  static func read(_ file: FoundFile, warning: inout String?) -> PhotoRecord {
    let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
    var photo = Photo(
      id: 0, source: .local, sourceID: file.path, path: file.path,
      title: defaultTitle(fileName: name))
    func failed(_ error: PhotoReadError, hash: String = "") -> PhotoRecord {
      PhotoRecord(
        photo: photo,
        file: FileState(
          size: file.size, changedNanoseconds: file.changeNanoseconds, contentHash: hash),
        problem: error.description)
    }

    let fd = open(file.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return failed(.unreadable(errnoText())) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return failed(.unreadable(errnoText())) }
    let size = Int(info.st_size)

    var head: [UInt8]
    do {
      head = try pread(fd, offset: 0, count: min(size, headSize))
    } catch {
      return failed(.unreadable(error.description))
    }
    let tailCount = min(size, ContentHash.sampleSize)
    let tail: [UInt8]
    if size <= head.count {
      tail = Array(head[(head.count - tailCount)...])
    } else {
      do {
        tail = try pread(fd, offset: size - tailCount, count: tailCount)
      } catch {
        return failed(.unreadable(error.description))
      }
    }
    let hash = head.prefix(ContentHash.sampleSize).withUnsafeBytes { h in
      tail.withUnsafeBytes { t in ContentHash.hash(size: Int64(size), head: h, tail: t) }
    }

    let state = FileState(size: Int64(size), changedNanoseconds: file.changeNanoseconds, contentHash: hash)
    func finish(_ metadata: PhotoMetadata, format: PhotoFormat) -> PhotoRecord {
      var m = metadata
      // A Takeout sidecar fills what the file lacks (Google strips positions from downloads).
      if let json = file.takeoutSidecar {
        if let bytes = smallFile(json, limit: TakeoutReader.maximumSize), let takeout = TakeoutReader.read(bytes) {
          m.fill(from: takeout)
        } else {
          let sidecarName = json.split(separator: "/").last.map(String.init) ?? json
          warning = "Google Takeout sidecar \(sidecarName) is not a JSON object of at most 1 MiB; ignored"
        }
      }
      // A sidecar's values win: photo editors write their corrections there.
      if let sidecar = file.sidecar, let bytes = smallFile(sidecar, limit: 4 << 20), let xmp = XMPReader.read(bytes) {
        m.merge(xmp, overriding: true)
      }
      photo.coordinate = m.coordinate
      photo.altitude = m.altitude
      photo.takenAt = m.takenAt
      photo.offsetSource = m.takenAt?.utcOffsetMinutes == nil ? nil : (m.offsetFromGPS ? .gps : .camera)
      if let title = m.title { photo.title = title }
      photo.cameraMake = m.cameraMake
      photo.cameraModel = m.cameraModel
      photo.width = m.width
      photo.height = m.height
      photo.orientation = m.orientation
      photo.mediaType = format.isVideo ? .video : .photo
      photo.duration = m.duration
      photo.description = m.description
      photo.keywords = m.keywords
      var fileState = state
      fileState.contentID = m.contentIdentifier
      return PhotoRecord(photo: photo, file: fileState)
    }
    guard let format = PhotoFormat(signature: Array(head.prefix(PhotoFormat.signatureLength))) else {
      if size == 0 { return failed(.emptyFile, hash: hash) }
      // Every file the walk hands over has a photo extension: say what it claimed to be.
      return failed(.notA(PhotoFormat(fileName: Substring(name)) ?? .jpeg), hash: hash)
    }
    let file = FileBytes(fd: fd, count: size)
    while true {
      let outcome = head.withUnsafeBytes { MetadataReader.read(head: $0, file: file, format: format) }
      switch outcome {
      case .failed(let error):
        return failed(error, hash: hash)
      case .needBytes(let n):
        guard n <= maximumHeaderBytes, n > head.count else {
          return failed(.malformed("headers longer than 16 MiB"), hash: hash)
        }
        do {
          head += try pread(fd, offset: head.count, count: min(size, max(n, head.count * 2)) - head.count)
        } catch {
          return failed(.unreadable(error.description), hash: hash)
        }
      case .metadata(let m):
        return finish(m, format: format)
      }
    }
  }

  /// A sidecar's bytes, or `nil` when it cannot be read or is larger than `limit` (it is
  /// never read whole to find out).
  static func smallFile(_ path: String, limit: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_size <= limit else { return nil }
    return try? pread(fd, offset: 0, count: Int(info.st_size))
  }

  /// The title of a photo without one in its metadata: its file name without the extension.
  static func defaultTitle(fileName: String) -> String {
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
    return String(fileName[..<dot])
  }

  /// A file read through pread, for the container readers.
  struct FileBytes: RandomAccessBytes {
    let fd: Int32
    let count: Int
    func bytes(at offset: Int, count n: Int) -> [UInt8]? {
      guard offset >= 0, n >= 0, offset <= count - n else { return nil }
      return try? PhotoFileReader.pread(fd, offset: offset, count: n)
    }
  }

  struct ReadError: Error, CustomStringConvertible {
    var description: String
  }

  static func pread(_ fd: Int32, offset: Int, count: Int) throws(ReadError) -> [UInt8] {
    guard count > 0 else { return [] }
    var done = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      while done < count {
        let n = Glibc.pread(fd, base + done, count - done, off_t(offset + done))
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        done += n
      }
      initialized = done
    }
    guard bytes.count == count else {
      throw ReadError(description: bytes.count < count ? "file shrank while reading" : errnoText())
    }
    return bytes
  }
}
