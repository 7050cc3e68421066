import Foundation
import GeoPhotoCore
import GeoPhotoFixtures

// Developer tool: writes the bundled example photos or a synthetic folder for benchmarks.
//   geophoto-fixtures examples DIR
//   geophoto-fixtures synthetic DIR COUNT

let arguments = CommandLine.arguments.dropFirst()
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(
    Data("Error: \(message)\nUsage: geophoto-fixtures examples DIR | synthetic DIR COUNT\n".utf8))
  exit(64)
}
guard let command = arguments.first, arguments.count >= 2 else { fail("missing arguments") }
let directory = URL(fileURLWithPath: arguments[arguments.startIndex + 1])
do {
  switch command {
  case "examples":
    try ExamplePhotos.write(to: directory)
    print("wrote \(ExamplePhotos.all.count) example photos to \(directory.path)")
  case "synthetic":
    guard arguments.count == 3, let count = Int(arguments[arguments.startIndex + 2]), count > 0 else {
      fail("synthetic needs a positive COUNT")
    }
    try SyntheticLibrary.writeFolder(to: directory, count: count)
    print("wrote \(count) synthetic photos to \(directory.path)")
  default:
    fail("unknown command '\(command)'")
  }
} catch {
  FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
  exit(1)
}
