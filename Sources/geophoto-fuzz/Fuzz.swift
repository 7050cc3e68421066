// geophoto-fuzz: geophoto's readers, decoders and renderers under libFuzzer, a replay of
// files through them, and a fuzzer of a live server's requests.
//
//   Scripts/fuzz.sh [seconds]        libFuzzer (-sanitize=fuzzer,address), one run per target
//   Scripts/asan-replay.sh           the corpora, the hostile files and the regressions, under ASan
//   geophoto-fuzz FILE|DIR...        the replay, in an ordinary build
//   geophoto-fuzz seeds DIR          writes HostileFiles (the structure-aware seeds) to DIR
//   geophoto-fuzz requests --port N  random requests to a live `geophoto serve` (RequestFuzzer; the
//                                    token from GEOPHOTO_FUZZ_TOKEN; GEOPHOTO_FUZZ_DEBUG=1 prints each
//                                    request answered slower than a second)
//
// Targets (GEOPHOTO_FUZZ_TARGET): one per PhotoFormat (its metadata reader, given the file), the
// EXIF block and XMP packet readers, the XMP sidecar merge, each thumbnail decoder, the RAW
// preview finder, the track readers (every format through the sniffer, CSV, Google location
// history and GeoJSON on their own), and the tile and snapshot renderers. GEOPHOTO_FUZZ_LIST=1
// lists them, each with the corpus file extensions that seed it; Scripts/fuzz.sh reads that
// list. File targets mutate with `ExtremeFields` half the time: a size, offset or count field
// set to an extreme value.

import Foundation
import GeoPhotoFixtures

/// The target list for Scripts/fuzz.sh: one line per target, its name then its seed extensions.
func listTargets() {
  for target in allTargets { print(([target.name] + target.seedExtensions).joined(separator: " ")) }
}

/// Writes the hostile files into `directory` (the seeds every file target starts from).
func writeSeeds(_ directory: String) -> Int32 {
  let folder = URL(fileURLWithPath: directory)
  do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for file in HostileFiles.all + HostileFiles.previews + HostileFiles.tracks + HostileFiles.tileArchives {
      try Data(file.bytes).write(to: folder.appendingPathComponent(file.name))
    }
    return 0
  } catch {
    FileHandle.standardError.write(Data("geophoto-fuzz: \(error)\n".utf8))
    return 1
  }
}

#if FUZZING
  typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>, _ callback: FuzzCallback
  ) -> CInt

  @_silgen_name("LLVMFuzzerMutate")
  func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int) -> Int

  nonisolated(unsafe) var fuzzTarget = allTargets[0]

  /// libFuzzer's own mutations, and for file targets half the time a field set to an extreme.
  @_cdecl("LLVMFuzzerCustomMutator")
  func customMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    var random = SeededRandom(seed: UInt64(seed) | 1 << 40)
    guard fuzzTarget.isFile, let data, size > 0, random.next(2) == 0 else {
      return libFuzzerMutate(data, size, maxSize)
    }
    ExtremeFields.mutate(UnsafeMutableBufferPointer(start: data, count: size), random: &random)
    return size
  }

  /// SwiftPM names an executable's entry point `<module>_main`; libFuzzer's driver runs from it.
  @_cdecl("geophoto_fuzz_main")
  func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let environment = ProcessInfo.processInfo.environment
    if environment["GEOPHOTO_FUZZ_LIST"] == "1" {
      listTargets()
      return 0
    }
    let arguments = CommandLine.arguments
    if arguments.count == 3 && arguments[1] == "seeds" { return writeSeeds(arguments[2]) }
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
      let arguments = Array(CommandLine.arguments.dropFirst())
      if arguments.first == "requests" { exit(runRequestFuzzer(Array(arguments.dropFirst()))) }
      if arguments.count == 2 && arguments[0] == "seeds" { exit(writeSeeds(arguments[1])) }
      var files: [URL] = []
      for argument in arguments {
        let url = URL(fileURLWithPath: argument)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
        if isDirectory.boolValue {
          let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
          files += names.map { url.appendingPathComponent($0) }
        } else {
          files.append(url)
        }
      }
      files.sort { $0.path < $1.path }
      let targets =
        environment["GEOPHOTO_FUZZ_TARGET"].map { name in allTargets.filter { $0.name == name } }
        ?? allTargets
      var count = 0
      for file in files {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue,
          let data = try? Data(contentsOf: file)
        else { continue }
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
      print("replayed \(count) files through \(targets.count) targets (\(targets.map(\.name).joined(separator: ", ")))")
    }
  }
#endif
