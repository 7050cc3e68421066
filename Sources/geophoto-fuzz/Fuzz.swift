// geophoto-fuzz: the metadata readers under libFuzzer, and a replay of files through them.
//
//   Scripts/fuzz.sh [seconds]       libFuzzer (-sanitize=fuzzer,address), one run per target
//   Scripts/asan-replay.sh          every malformed corpus file through every reader, under ASan
//   geophoto-fuzz FILE|DIR...       the replay, in an ordinary build
//
// Targets (GEOPHOTO_FUZZ_TARGET): jpeg, heif, png, tiff, webp, exif, xmp.

import Foundation
import GeoPhotoExif

/// Runs one input through a reader; none of them may crash, hang or read out of bounds.
func exercise(_ bytes: [UInt8], target: String) {
  switch target {
  case "jpeg":
    _ = bytes.withUnsafeBytes { JPEGMetadata.read($0, fileSize: bytes.count) }
    _ = bytes.withUnsafeBytes { JPEGMetadata.thumbnail($0, fileSize: bytes.count) }
  case "heif", "png", "tiff", "webp":
    let format = ContainerFormat(rawValue: target) ?? .heif
    _ = JPEGMetadata.read(container: MemoryBytes(bytes), format: format)
  case "exif":
    let block = Array("Exif\0\0".utf8) + bytes
    _ = block.withUnsafeBytes { ExifReader.read(exifBlock: $0) }
    _ = block.withUnsafeBytes { ExifReader.thumbnail(exifBlock: $0) }
  case "xmp":
    _ = XMPReader.read(bytes)
  default:
    break
  }
}

let allTargets = ["jpeg", "heif", "png", "tiff", "webp", "exif", "xmp"]

#if FUZZING
  typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>, _ callback: FuzzCallback
  ) -> CInt

  nonisolated(unsafe) var fuzzTarget = "jpeg"

  /// SwiftPM names an executable's entry point `<module>_main`; libFuzzer's driver runs from it.
  @_cdecl("geophoto_fuzz_main")
  func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzTarget = ProcessInfo.processInfo.environment["GEOPHOTO_FUZZ_TARGET"] ?? "jpeg"
    var count = argc
    var values = argv
    return runDriver(&count, &values) { data, size in
      guard let data else { return 0 }
      exercise(Array(UnsafeBufferPointer(start: data, count: size)), target: fuzzTarget)
      return 0
    }
  }
#else
  @main
  struct Replay {
    static func main() {
      var files: [URL] = []
      for argument in CommandLine.arguments.dropFirst() {
        let url = URL(fileURLWithPath: argument)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
        if isDirectory.boolValue {
          let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
          files += names.sorted().map { url.appendingPathComponent($0) }
        } else {
          files.append(url)
        }
      }
      let targets = ProcessInfo.processInfo.environment["GEOPHOTO_FUZZ_TARGET"].map { [$0] } ?? allTargets
      var count = 0
      for file in files {
        guard let data = try? Data(contentsOf: file) else { continue }
        let bytes = [UInt8](data)
        for target in targets {
          exercise(bytes, target: target)
          // Truncations too: a cut anywhere must be handled.
          for cut in [bytes.count / 2, 64, 16] where cut < bytes.count {
            exercise(Array(bytes.prefix(cut)), target: target)
          }
        }
        count += 1
      }
      print("replayed \(count) files through \(targets.count) readers")
    }
  }
#endif
