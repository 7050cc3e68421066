import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoPlaces
import GeoPhotoSQLite

// Developer tool: writes the bundled example photos or a synthetic folder for benchmarks.
//   geophoto-fixtures examples DIR
//   geophoto-fixtures synthetic DIR COUNT
//   geophoto-fixtures gazetteer OUT.gaz PLACES-DIR
//   geophoto-fixtures basemap OUT.basemap BASEMAP-DIR GAZETTEER.gaz
//   geophoto-fixtures hostile DIR       files with extreme size and offset fields (HostileFiles)
//   geophoto-fixtures travel INDEX      an index holding four years of trips (TravelTimeline)

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
    // geophoto-fixtures gazetteer OUT.gaz DIR: the shipped gazetteer from the places extract in
    // DIR (geonames-cities500.tsv, countries.tsv, countries-ne10m.tsv).
    guard arguments.count == 3 else { fail("gazetteer needs OUT and the places folder") }
    let folder = URL(fileURLWithPath: arguments[arguments.startIndex + 2])
    func read(_ name: String) throws -> String {
      try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }
    let places = try GazetteerBuilder.placesFromTSV(try read("geonames-cities500.tsv"))
    let bytes = try GazetteerBuilder.build(
      places, countries: try GazetteerBuilder.countriesFromTSV(try read("countries.tsv")),
      rings: try GazetteerBuilder.ringsFromTSV(try read("countries-ne10m.tsv")))
    try Data(bytes).write(to: directory, options: .atomic)
    print("wrote \(places.count) places, \(bytes.count) bytes, to \(directory.path)")
  case "basemap":
    // geophoto-fixtures basemap OUT DIR GAZ: the shipped basemap from Natural Earth's layers in
    // DIR, labelled with the places of the gazetteer GAZ.
    guard arguments.count == 4 else { fail("basemap needs OUT, the basemap folder and the gazetteer") }
    let folder = URL(fileURLWithPath: arguments[arguments.startIndex + 2])
    let gazetteer = try Gazetteer(contentsOf: URL(fileURLWithPath: arguments[arguments.startIndex + 3]))
    let bytes = try BasemapBuilder.build(sources: folder, gazetteer: gazetteer)
    try Data(bytes).write(to: directory, options: .atomic)
    print("wrote the basemap, \(bytes.count) bytes, to \(directory.path)")
  case "hostile":
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let files = HostileFiles.all + HostileFiles.previews + HostileFiles.tracks + HostileFiles.tileArchives
    for file in files { try Data(file.bytes).write(to: directory.appendingPathComponent(file.name)) }
    print("wrote \(files.count) hostile files to \(directory.path)")
  case "travel":
    let store = try SQLitePhotoStore(url: directory, mode: .create)
    let records = TravelTimeline.fourYears().0.records()
    try store.copy(records)
    try store.refreshDerivedIndexes()
    print("wrote \(records.count) photos of four years of trips to \(directory.path)")
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
