import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoPlaces

// Developer tool: writes the bundled example photos or a synthetic folder for benchmarks.
//   geophoto-fixtures examples DIR
//   geophoto-fixtures synthetic DIR COUNT
//   geophoto-fixtures gazetteer OUT.gaz CSV

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
  case "gazetteer":
    // geophoto-fixtures gazetteer OUT.gaz CSV: the shipped gazetteer from the GeoNames extract.
    guard arguments.count == 3 else { fail("gazetteer needs OUT and CSV") }
    let csv = try String(contentsOfFile: arguments[arguments.startIndex + 2], encoding: .utf8)
    let bytes = try GazetteerBuilder.build(try GazetteerBuilder.placesFromCSV(csv))
    try Data(bytes).write(to: directory)
    print("wrote \(bytes.count) bytes to \(directory.path)")
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
