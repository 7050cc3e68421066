// geophoto-fuzz: the metadata readers under libFuzzer, and a replay of files through them.
//
//   Scripts/fuzz.sh [seconds]       libFuzzer (-sanitize=fuzzer,address), one run per target
//   Scripts/asan-replay.sh          every malformed corpus file through every reader, under ASan
//   geophoto-fuzz FILE|DIR...       the replay, in an ordinary build
//
// Targets (GEOPHOTO_FUZZ_TARGET): one per PhotoFormat (its metadata reader, given the file),
// plus the EXIF block and XMP packet readers. GEOPHOTO_FUZZ_LIST=1 lists them, each with the
// corpus file extensions that seed it; Scripts/fuzz.sh reads that list.

import Foundation
import GeoPhotoExif

/// A reader under test and the corpus files that seed it. None may crash, hang or read out
/// of bounds, whatever the bytes.
struct FuzzTarget: Sendable {
  var name: String
  var seedExtensions: [String]
  var exercise: @Sendable ([UInt8]) -> Void
}

let allTargets: [FuzzTarget] =
  PhotoFormat.allCases.map { format in
    FuzzTarget(name: format.fuzzTarget, seedExtensions: format.fuzzSeedExtensions) { bytes in
      _ = bytes.withUnsafeBytes { MetadataReader.read(head: $0, file: MemoryBytes(bytes), format: format) }
      if format == .jpeg { _ = bytes.withUnsafeBytes { MetadataReader.thumbnail($0, fileSize: bytes.count) } }
    }
  } + [
    FuzzTarget(name: "exif", seedExtensions: ["exv"]) { bytes in
      let block = Array("Exif\0\0".utf8) + bytes
      _ = block.withUnsafeBytes { ExifReader.read(exifBlock: $0) }
      _ = block.withUnsafeBytes { ExifReader.thumbnail(exifBlock: $0) }
    },
    FuzzTarget(name: "xmp", seedExtensions: ["xmp"]) { _ = XMPReader.read($0) },
  ]

/// The target list for Scripts/fuzz.sh: one line per target, its name then its seed extensions.
func listTargets() {
  for target in allTargets { print(([target.name] + target.seedExtensions).joined(separator: " ")) }
}

#if FUZZING
  typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>, _ callback: FuzzCallback
  ) -> CInt

  nonisolated(unsafe) var fuzzTarget = allTargets[0]

  /// SwiftPM names an executable's entry point `<module>_main`; libFuzzer's driver runs from it.
  @_cdecl("geophoto_fuzz_main")
  func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let environment = ProcessInfo.processInfo.environment
    if environment["GEOPHOTO_FUZZ_LIST"] == "1" {
      listTargets()
      return 0
    }
    let name = environment["GEOPHOTO_FUZZ_TARGET"] ?? allTargets[0].name
    guard let target = allTargets.first(where: { $0.name == name }) else {
      FileHandle.standardError.write(Data("geophoto-fuzz: no target '\(name)'\n".utf8))
      return 64
    }
    fuzzTarget = target
    var count = argc
    var values = argv
    return runDriver(&count, &values) { data, size in
      guard let data else { return 0 }
      fuzzTarget.exercise(Array(UnsafeBufferPointer(start: data, count: size)))
      return 0
    }
  }
#else
  @main
  struct Replay {
    static func main() {
      let environment = ProcessInfo.processInfo.environment
      if environment["GEOPHOTO_FUZZ_LIST"] == "1" { return listTargets() }
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
      let targets =
        environment["GEOPHOTO_FUZZ_TARGET"].map { name in allTargets.filter { $0.name == name } }
        ?? allTargets
      var count = 0
      for file in files {
        guard let data = try? Data(contentsOf: file) else { continue }
        let bytes = [UInt8](data)
        for target in targets {
          target.exercise(bytes)
          // Truncations too: a cut anywhere must be handled.
          for cut in [bytes.count / 2, 64, 16] where cut < bytes.count {
            target.exercise(Array(bytes.prefix(cut)))
          }
        }
        count += 1
      }
      print("replayed \(count) files through \(targets.count) readers (\(targets.map(\.name).joined(separator: ", ")))")
    }
  }
#endif
