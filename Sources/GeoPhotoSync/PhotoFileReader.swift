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

  /// What reading one file gave: its record, and a warning about damage the reader went past
  /// or a sidecar that could not be used (the photo itself was read).
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
    let unread = Photo(id: 0, source: .local, sourceID: file.path, title: defaultTitle(fileName: name))
    func failed(_ error: PhotoReadError, _ state: FileState? = nil) -> PhotoRecord {
      PhotoRecord(
        photo: unread,
        file: state ?? FileState(size: file.size, changedNanoseconds: file.changeNanoseconds, contentHash: ""),
        problem: error.description)
    }
    var sample: Sample
    do {
      sample = try Sample(file)
    } catch {
      return failed(error)
    }
    guard let format = PhotoFormat(signature: Array(sample.head.prefix(PhotoFormat.signatureLength))) else {
      if sample.state.size == 0 { return failed(.emptyFile, sample.state) }
      // Every file the walk hands over has a photo extension: say what it claimed to be.
      return failed(.notA(PhotoFormat(fileName: Substring(name)) ?? .jpeg), sample.state)
    }
    var metadata: PhotoMetadata
    switch sample.metadata(format: format) {
    case .failure(let error): return failed(error, sample.state)
    case .success(let read): metadata = read
    }
    // Damage the reader went past: the file is indexed with what could be read, and warned of.
    if let damage = metadata.damage { warning = "damaged \(format.name) file: \(damage)" }
    mergeSidecars(of: file, into: &metadata, warning: &warning)
    var state = sample.state
    state.contentID = metadata.contentIdentifier
    return PhotoRecord(photo: photo(unread, with: metadata, format: format), file: state)
  }

  /// A file opened, its head read (`headSize`, all of a small file) and its content hash taken.
  struct Sample {
    let opened: ReadableFile
    var head: [UInt8]
    let state: FileState

    init(_ file: FoundFile) throws(PhotoReadError) {
      do {
        opened = try ReadableFile(path: file.path, followingLinks: file.isLink)
        let size = opened.size
        head = try opened.read(at: 0, count: min(size, headSize))
        let tailCount = min(size, ContentHash.sampleSize)
        let tail =
          size <= head.count
          ? Array(head[(head.count - tailCount)...]) : try opened.read(at: size - tailCount, count: tailCount)
        let hash = head.prefix(ContentHash.sampleSize).withUnsafeBytes { h in
          tail.withUnsafeBytes { t in ContentHash.hash(size: Int64(size), head: h, tail: t) }
        }
        state = FileState(size: Int64(size), changedNanoseconds: file.changeNanoseconds, contentHash: hash)
      } catch {
        throw .unreadable(error.description)
      }
    }

    /// The file's metadata as a `format` file: the head grown while the reader asks for more
    /// (up to `maximumHeaderBytes`).
    mutating func metadata(format: PhotoFormat) -> Result<PhotoMetadata, PhotoReadError> {
      while true {
        let outcome = head.withUnsafeBytes { MetadataReader.read(head: $0, file: opened, format: format) }
        switch outcome {
        case .failed(let error):
          return .failure(error)
        case .needBytes(let n):
          guard n <= maximumHeaderBytes, n > head.count else {
            return .failure(.malformed("headers longer than 16 MiB"))
          }
          do {
            head += try opened.read(at: head.count, count: min(opened.size, max(n, head.count * 2)) - head.count)
          } catch {
            return .failure(.unreadable(error.description))
          }
        case .metadata(let m):
          return .success(m)
        }
      }
    }
  }

  /// A Takeout sidecar fills what the file lacks (Google strips positions from downloads); an
  /// XMP sidecar's values win (photo editors write their corrections there).
  static func mergeSidecars(of file: FoundFile, into m: inout PhotoMetadata, warning: inout String?) {
    if let json = file.takeoutSidecar {
      if let bytes = smallFile(json, limit: TakeoutReader.maximumSize), let takeout = TakeoutReader.read(bytes) {
        m.fill(from: takeout)
      } else {
        let sidecarName = json.split(separator: "/").last.map(String.init) ?? json
        warning = "Google Takeout sidecar \(sidecarName) is not a JSON object of at most 1 MiB; ignored"
      }
    }
    if let sidecar = file.sidecar {
      let sidecarName = sidecar.split(separator: "/").last.map(String.init) ?? sidecar
      if let bytes = smallFile(sidecar, limit: XMPSidecarFile.maximumSize) {
        var damage = DamageLog()
        m.merge(XMPReader.read(bytes, damage: &damage), overriding: true)
        if let problem = damage.first { warning = warning ?? "XMP sidecar \(sidecarName): \(problem)" }
      } else {
        warning =
          warning
          ?? "XMP sidecar \(sidecarName) cannot be read or is larger than \(XMPSidecarFile.maximumSize >> 20) MiB; ignored"
      }
    }
  }

  /// `photo` with what its file's metadata `m` says.
  static func photo(_ photo: Photo, with m: PhotoMetadata, format: PhotoFormat) -> Photo {
    var photo = photo
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
    return photo
  }

  /// A sidecar's bytes, or `nil` when it cannot be read or is larger than `limit` (it is
  /// never read whole to find out).
  static func smallFile(_ path: String, limit: Int) -> [UInt8]? {
    try? ReadableFile(path: path).readAll(limit: limit)
  }

  /// The title of a photo without one in its metadata: its file name without the extension.
  static func defaultTitle(fileName: String) -> String {
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
    return String(fileName[..<dot])
  }

}
