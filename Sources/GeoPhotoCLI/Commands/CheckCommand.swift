import Foundation
import GeoPhotoBasemap
import GeoPhotoPlaces
import GeoPhotoStore

enum CheckCommand: Subcommand {
  static let spec = CommandSpec(
    name: "check",
    abstract: "Check the index, its derived files, the photos' files and the shipped data.",
    discussion: """
      Verifies the index (SQLite's consistency check, or that PostgreSQL answers with this
      geophoto's schema), the spatial index file against the rows (its checksum, how many
      photos, and a sample of positions), that the synced folders and their files are still
      there, and that the place names and the basemap can be read. One line per problem, and
      exit 1 when there is one.
      --repair rebuilds every derived file from the rows first.
      """,
    options: [repairFlag.spec, thorough.spec],
    examples: ["geophoto check", "geophoto check --repair", "geophoto check --thorough --db /srv/photos/index.sqlite"])

  static let repairFlag = FlagOption(
    long: "repair", help: "Build every derived file (the spatial index) again from the rows first.")
  static let thorough = FlagOption(
    long: "thorough", help: "SQLite's full integrity check (every page and index) instead of the quick one.")

  static func run(_ context: CommandContext) throws {
    guard context.parsed.positionals.isEmpty else {
      throw UsageError("Unexpected argument '\(context.parsed.positionals[0])'")
    }
    let console = context.console
    let repair = context.parsed.has(repairFlag)
    let store: any PhotoStore
    do {
      guard let opened = try context.openStore(repair ? .readWrite : .readOnly) else {
        throw RuntimeError(
          "no index at \(CommandContext.stores.redacted(context.configuration.databasePath)); run 'geophoto sync DIR'")
      }
      store = opened
    } catch let error as RuntimeError {
      throw error
    } catch {
      throw RuntimeError("the index cannot be opened: \(error)")
    }
    if repair {
      try store.rebuildDerivedIndexes()
      console.out("repaired: derived files rebuilt from the rows\n")
    }
    // A damaged database may fail any read: each failure is a problem, not the end of the check.
    var problems: [String] = []
    do {
      problems += try store.check(thorough: context.parsed.has(thorough))
      problems += try missingFiles(store)
    } catch {
      problems.append("the index cannot be read: \(error)")
    }
    var notes: [String] = []
    if let url = PlaceNames.gazetteerURL(context) {
      do {
        let gazetteer = try PlaceNames.load(url)
        if (try? store.hasPhotosToPlace(gazetteer: Int64(gazetteer.identity))) == true {
          notes.append("some photos are named with another gazetteer: the next sync names them again")
        }
      } catch {
        problems.append("the place names cannot be read: \(error)")
      }
    } else {
      notes.append("no place names are installed (\(Gazetteer.bundledName)): photos are not named")
    }
    if let url = Basemap.shippedURL {
      do { _ = try Basemap(contentsOf: url) } catch { problems.append("the basemap cannot be read: \(error)") }
    } else {
      notes.append("no basemap is installed (\(Basemap.bundledName)): maps need --tiles osm or none")
    }
    for problem in problems { console.out("problem: \(problem)\n") }
    for note in notes { console.out("note: \(note)\n") }
    if problems.isEmpty {
      let counts = try store.counts()
      console.out("index ok: \(store.location), \(counts.photos) photos, generation \(try store.generation())\n")
    } else {
      console.out("\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(store.location)\n")
      throw ExitCode.failure
    }
  }

  /// Synced folders that are gone, and files of the index no longer on disk (which the next
  /// sync removes, unless the folder itself is gone).
  static func missingFiles(_ store: any PhotoStore) throws -> [String] {
    var problems: [String] = []
    let fm = FileManager.default
    for root in try store.syncRoots() {
      var isFolder: ObjCBool = false
      let files = try store.knownFiles(under: root.path)
      guard fm.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
        problems.append(
          "the synced folder \(root.path) is not there (unmounted?); its \(files.count) files are kept until it is back"
        )
        continue
      }
      let gone = files.filter { !fm.fileExists(atPath: $0.path) }
      if !gone.isEmpty {
        let shown = gone.prefix(3).map(\.path).joined(separator: ", ")
        problems.append(
          "\(gone.count) files under \(root.path) are gone (\(shown)\(gone.count > 3 ? ", …" : "")); "
            + "the next sync removes them")
      }
    }
    return problems
  }
}
