import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoExif

/// Every format and layout against exiftool: samples made at test time (Scripts/
/// make-format-samples.sh), each read by geophoto and by `exiftool -n` (never `-fast`).
@Suite(.enabled(if: FormatSamples.unavailable == nil, "format samples: \(FormatSamples.unavailable ?? "")"))
struct FormatSampleTests {
  /// What exiftool reads from one sample.
  struct Reference {
    var latitude, longitude, altitude: Double?
    var takenAt: String?
    var make, model: String?
    var duration: Double?
    var width, height: Int?
    var orientation: Int?
    var title: String?
  }

  static let folder: URL? = try? FormatSamples.make(in: FileManager.default.temporaryDirectory)

  static func reference(_ folder: URL) throws -> [String: Reference] {
    let run = try ToolRun(
      "/usr/bin/exiftool",
      [
        "-m", "-n", "-json", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-GPSAltitudeRef", "-GPSCoordinates",
        "-DateTimeOriginal", "-OffsetTimeOriginal", "-CreationDate", "-CreateDate", "-Make", "-Model", "-Duration",
        "-ImageWidth", "-ImageHeight", "-ExifImageWidth", "-ExifImageHeight", "-FileType", "-Orientation", "-Rotation",
        "-ImageDescription", "-Title", folder.path,
      ])
    let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    var result: [String: Reference] = [:]
    for e in entries {
      let name = ((e["SourceFile"] as? String ?? "") as NSString).lastPathComponent
      var r = Reference()
      func text(_ key: String) -> String? { (e[key] as? String) ?? (e[key] as? NSNumber).map { "\($0)" } }
      if let coordinates = e["GPSCoordinates"] as? String {
        // QuickTime: "lat lon alt", the altitude signed (exiftool's composite altitude is not).
        let parts = coordinates.split(separator: " ").compactMap { Double($0) }
        r.latitude = parts.first
        r.longitude = parts.dropFirst().first
        r.altitude = parts.dropFirst(2).first
      } else {
        r.latitude = e["GPSLatitude"] as? Double
        r.longitude = e["GPSLongitude"] as? Double
        r.altitude = (e["GPSAltitude"] as? Double).map { ((e["GPSAltitudeRef"] as? Int) == 1 && $0 > 0) ? -$0 : $0 }
      }
      if let original = text("DateTimeOriginal") {
        r.takenAt = CaptureDate(exif: original).map { d in
          var date = d
          date.utcOffsetMinutes = text("OffsetTimeOriginal").flatMap(CaptureDate.parseOffset)
          return date.iso8601
        }
      } else if let creation = text("CreationDate"), let date = CaptureDate(timestamp: creation) {
        r.takenAt = date.iso8601  // QuickTime's Apple key: local time with its offset
      } else if let created = text("CreateDate"), var date = CaptureDate(exif: created) {
        date.utcOffsetMinutes = 0  // the movie header: UTC
        r.takenAt = date.iso8601
      }
      r.make = text("Make")
      r.model = text("Model")
      r.duration = e["Duration"] as? Double
      let isVideo = ["MOV", "MP4", "M4V", "3GP", "3G2"].contains(text("FileType") ?? "")
      r.width = (isVideo ? e["ImageWidth"] : e["ExifImageWidth"]) as? Int
      r.height = (isVideo ? e["ImageHeight"] : e["ExifImageHeight"]) as? Int
      // A video's rotation, as the EXIF orientation a viewer applies (exiftool's Rotation).
      r.orientation = isVideo ? [90: 6, 180: 3, 270: 8][e["Rotation"] as? Int ?? 0] : e["Orientation"] as? Int
      // A camera's default description is not a title (README, sync): the MRW sample has one.
      r.title = (text("ImageDescription") ?? text("Title")).flatMap { $0 == "KONICA MINOLTA DIGITAL CAMERA" ? nil : $0 }
      result[name] = r
    }
    return result
  }

  static func read(_ url: URL) throws -> (PhotoFormat, PhotoMetadata) {
    let bytes = [UInt8](try Data(contentsOf: url))
    let format = try #require(PhotoFormat(signature: Array(bytes.prefix(PhotoFormat.signatureLength))), "\(url)")
    guard
      case .metadata(let m) = bytes.withUnsafeBytes({
        MetadataReader.read(head: $0, file: MemoryBytes(bytes), format: format)
      })
    else {
      Issue.record("\(url.lastPathComponent): not read")
      return (format, PhotoMetadata())
    }
    return (format, m)
  }

  @Test func everySampleAgreesWithExiftool() throws {
    let folder = try #require(Self.folder, "the samples could not be made")
    let reference = try Self.reference(folder)
    #expect(reference.count >= 45)
    for (name, r) in reference.sorted(by: { $0.key < $1.key }) where name != "brob.jxl" {
      let (format, m) = try Self.read(folder.appendingPathComponent(name))
      // RAW files with TIFF's own magic are recognised as TIFF: the same reader.
      let claimed = PhotoFormat(fileName: Substring(name))
      #expect(claimed == format || (claimed == .raw && format == .tiff), "\(name): read as \(format)")
      // 3GPP loci is 16.16 fixed point, which exiftool prints to 5 decimals.
      let tolerance = r.latitude.map { abs($0 * 1e5 - ($0 * 1e5).rounded()) < 1e-6 } == true ? 1e-5 : 1e-9
      if let lat = r.latitude, let lon = r.longitude {
        let c = try #require(m.coordinate, "\(name): no position")
        #expect(abs(c.latitude - lat) < tolerance && abs(c.longitude - lon) < tolerance, "\(name): \(c)")
        if let alt = r.altitude {
          #expect(
            m.altitude.map { abs($0 - alt) < max(tolerance, 1e-9) * 1e3 } == true,
            "\(name): \(String(describing: m.altitude)) vs \(alt)")
        }
      } else {
        #expect(m.coordinate == nil, "\(name)")
      }
      #expect(m.takenAt?.iso8601 == r.takenAt, "\(name)")
      #expect(m.cameraMake == r.make && m.cameraModel == r.model, "\(name)")
      if let duration = r.duration, format.isVideo {
        #expect(m.duration.map { abs($0 - duration) < 1e-3 } == true, "\(name): \(String(describing: m.duration))")
      } else {
        #expect(m.duration == nil, "\(name)")
      }
      #expect(m.orientation == r.orientation, "\(name): orientation \(String(describing: m.orientation))")
      #expect(m.title == r.title, "\(name): title \(String(describing: m.title))")
      // exiftool's ExifImageWidth of an RW2 is its embedded preview JPEG's; the RAW's own
      // directories carry no pixel size.
      if let w = r.width, let h = r.height, !name.hasSuffix(".rw2") && !name.hasSuffix(".rwl") {
        #expect(m.width == w && m.height == h, "\(name)")
      }
    }
  }

  /// EXIF UserComment as the description, in ASCII and in UNICODE, as exiftool writes it.
  @Test func userCommentsAreDescriptions() throws {
    let folder = try #require(Self.folder)
    // A folder of its own: the other tests list the samples' folder while this one runs.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gp-comment-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    for (name, text) in [("comment-ascii.jpg", "Morning at Fushimi Inari"), ("comment-unicode.jpg", "伏見稲荷の朝")] {
      let url = scratch.appendingPathComponent(name)
      try FileManager.default.copyItem(at: folder.appendingPathComponent("src.jpg"), to: url)
      let write = try ToolRun("/usr/bin/exiftool", ["-q", "-overwrite_original", "-UserComment=\(text)", url.path])
      #expect(write.status == 0, "\(write.stderr)")
      let read = try ToolRun("/usr/bin/exiftool", ["-s3", "-UserComment", url.path])
      #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == text)
      let bytes = [UInt8](try Data(contentsOf: url))
      guard case .metadata(let m) = bytes.withUnsafeBytes({ MetadataReader.jpeg($0, fileSize: bytes.count) }) else {
        Issue.record("\(name): not read")
        continue
      }
      #expect(m.description == text, "\(name)")
    }
  }

  /// Every extension of the new formats has a sample, so none goes untested.
  @Test func everyExtensionHasASample() throws {
    let folder = try #require(Self.folder)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    let extensions = Set(names.map { ($0 as NSString).pathExtension.lowercased() })
    for format in [PhotoFormat.raw, .cr3, .raf, .mrw, .jpegXL, .video] {
      for ext in format.extensions { #expect(extensions.contains(ext), "no .\(ext) sample") }
    }
    #expect(extensions.contains("avif"))
  }

  /// exiftool cannot read Exif in a Brotli `brob` box: the values are those of the JPEG it
  /// was made from (cjxl keeps its EXIF, compressed).
  @Test func compressedJPEGXLExifReadsAsItsSource() throws {
    let folder = try #require(Self.folder)
    let (format, brob) = try Self.read(folder.appendingPathComponent("brob.jxl"))
    #expect(format == .jpegXL)
    let jpeg = try Data(contentsOf: folder.appendingPathComponent("src.jpg"))
    let source = try #require(
      [UInt8](jpeg).withUnsafeBytes { b -> PhotoMetadata? in
        if case .metadata(let m) = MetadataReader.jpeg(b, fileSize: b.count) { return m }
        return nil
      })
    #expect(brob.coordinate == source.coordinate && brob.coordinate != nil)
    #expect(brob.altitude == FormatSamples.altitude && brob.takenAt == source.takenAt && brob.cameraMake == "TEST")
    // The box is really compressed: its Exif is not in the file as plain bytes.
    let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("brob.jxl")))
    var damage = DamageLog()
    let boxes = ContainerReader.topLevelBoxes(MemoryBytes(bytes), damage: &damage).map(\.type)
    #expect(damage.first == nil)
    #expect(boxes.contains("brob") && !boxes.contains("Exif"))
  }

  /// A video whose movie box comes last and a RAW whose IFD0 sits after megabytes of pixels
  /// are read with a few small reads, not whole.
  @Test func largeFilesCostFewSmallReads() throws {
    let folder = try #require(Self.folder)
    for name in ["ffmpeg-moov-last-mov.mov", "raw-nef.nef"] {
      var bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
      if name.hasSuffix(".mov") {
        // 40 MB of media data before the movie box: a free box the walk must step over.
        let pad = 40_000_000
        let free =
          [UInt8]([UInt8(pad >> 24), UInt8((pad >> 16) & 0xFF), UInt8((pad >> 8) & 0xFF), UInt8(pad & 0xFF)])
          + Array("free".utf8) + [UInt8](repeating: 0, count: pad - 8)
        let ftypEnd = Int(try #require(ByteCursor.number(bytes, at: 0, size: 4, bigEndian: true)))
        bytes = Array(bytes[0..<ftypEnd]) + free + Array(bytes[ftypEnd...])
      } else {
        bytes = Self.movingIFD0(bytes, after: 40_000_000)
      }
      let file = CountingBytes(bytes)
      let format = try #require(PhotoFormat(signature: Array(bytes.prefix(PhotoFormat.signatureLength))))
      let outcome = bytes.prefix(4096).withUnsafeBytes { MetadataReader.read(head: $0, file: file, format: format) }
      guard case .metadata(let m) = outcome else { throw Failure("\(name): \(outcome)") }
      #expect(m.coordinate != nil, "\(name)")
      #expect(file.read.value < 1_000_000, "\(name): read \(file.read.value) bytes")
    }
  }

  /// The TIFF structure with IFD0 moved behind `padding` bytes at the end of the file.
  static func movingIFD0(_ tiff: [UInt8], after padding: Int) -> [UInt8] {
    let (head, tail) = TIFFLayouts.ifd0AtTheEnd(tiff, padding: padding)
    return head + [UInt8](repeating: 0, count: padding) + tail
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
  }
}

/// A file in memory that counts the bytes its readers ask for.
final class CountingBytes: RandomAccessBytes, @unchecked Sendable {
  let data: MemoryBytes
  let read = Counter()
  init(_ bytes: [UInt8]) { data = MemoryBytes(bytes) }
  var count: Int { data.count }
  func bytes(at offset: Int, count n: Int) -> [UInt8]? {
    read.value += n
    return data.bytes(at: offset, count: n)
  }
  final class Counter: @unchecked Sendable { var value = 0 }
}
