import Foundation
public import GeoPhotoCore
import GeoPhotoSQLite
import Synchronization

/// An MBTiles (1.3) archive: the `tiles` table (or view) with rows counted from the south, and
/// the `metadata` table. The file is opened as one geophoto did not write (`Database.Mode
/// .untrusted`): read only, defensive, each query's work bounded, values bounded in size. Its
/// connections are kept for the threads that read tiles.
public final class MBTilesArchive: TileArchive, @unchecked Sendable {
  public let info: ArchiveInfo
  private let path: String
  private let idle = Mutex<[Connection]>([])

  /// A connection, handed to one thread at a time.
  final class Connection: @unchecked Sendable {
    let database: Database
    init(_ path: String) throws(SQLiteError) { database = try Database(path: path, mode: .untrusted) }
  }

  /// Opens the archive at `path`; damage names what is wrong with it.
  public init(path: String) throws(DataDamage) {
    self.path = path
    let connection: Connection
    do {
      guard FileManager.default.isReadableFile(atPath: path) else { throw DataDamage("cannot read \(path)") }
      connection = try Connection(path)
    } catch let damage as DataDamage {
      throw damage
    } catch {
      throw DataDamage("\(path) is not an MBTiles archive: \(error)")
    }
    let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    var info = ArchiveInfo(
      path: path, kind: .mbtiles, format: .vector, minZoom: 0, maxZoom: 0,
      name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, fileSize: size)
    let database = connection.database
    do {
      var values: [String: Any] = [:]
      database.resetStepBudget()
      try database.forEachRow("SELECT name, value FROM metadata LIMIT 10000") { row in
        if let name = row.text(at: 0), let value = row.text(at: 1) { values[name] = value }
      }
      ArchiveMetadata.apply(values, to: &info)
      switch (values["format"] as? String)?.lowercased() {
      case "pbf", "mvt", "application/x-protobuf", "application/vnd.mapbox-vector-tile", nil: info.format = .vector
      case "png", "image/png": info.format = .png
      case "jpg", "jpeg", "image/jpeg": info.format = .jpeg
      case "webp", "image/webp": info.format = .webp
      case let other?: throw DataDamage("\(path): tiles of format \(other), which geophoto does not read")
      }
      // The zooms present, whatever the metadata says.
      database.resetStepBudget()
      guard let low = try database.queryInt64("SELECT MIN(zoom_level) FROM tiles"),
        let high = try database.queryInt64("SELECT MAX(zoom_level) FROM tiles"),
        low >= 0, high <= Int64(TileAddress.maximumZoom), low <= high
      else { throw DataDamage("\(path) holds no tiles") }
      info.minZoom = Int(low)
      info.maxZoom = Int(high)
      if info.bounds == nil {
        database.resetStepBudget()
        var found: (Int, Int, Int, Int)?
        try database.forEachRow(
          "SELECT MIN(tile_column), MAX(tile_column), MIN(tile_row), MAX(tile_row) FROM tiles WHERE zoom_level = ?",
          [.integer(high)]
        ) { row in
          if let a = row.int64(at: 0), let b = row.int64(at: 1), let c = row.int64(at: 2), let d = row.int64(at: 3) {
            found = (Int(clamping: a), Int(clamping: b), Int(clamping: c), Int(clamping: d))
          }
        }
        let n = 1 << info.maxZoom
        if let (x0, x1, r0, r1) = found, x0 >= 0, x1 < n, x0 <= x1, r0 >= 0, r1 < n, r0 <= r1 {
          info.bounds = ArchiveMetadata.bounds(zoom: info.maxZoom, x: x0...x1, y: (n - 1 - r1)...(n - 1 - r0))
          info.boundsFromTiles = true
        }
      }
    } catch let damage as DataDamage {
      throw damage
    } catch {
      throw DataDamage("\(path) is not an MBTiles archive: \(error)")
    }
    info.schema = info.format == .vector ? TileSchema.detect(layers: Set(info.vectorLayers.map(\.id))) : .generic
    self.info = info
    idle.withLock { $0.append(connection) }
  }

  public func storedTile(_ address: TileAddress) throws(DataDamage) -> [UInt8]? {
    guard address.zoom >= info.minZoom, address.zoom <= info.maxZoom else { return nil }
    let connection: Connection
    do {
      connection = try idle.withLock { $0.popLast() } ?? Connection(path)
    } catch {
      throw DataDamage("\(path): \(error)")
    }
    defer { idle.withLock { $0.append(connection) } }
    let database = connection.database
    database.resetStepBudget()
    var found: [UInt8]?
    do {
      try database.forEachRow(
        "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? LIMIT 1",
        [.integer(Int64(address.zoom)), .integer(Int64(address.x)), .integer(Int64(address.tmsRow))]
      ) { row in
        found = row.withBytes(at: 0) { [UInt8]($0) }
      }
    } catch {
      throw DataDamage("\(path), tile \(address): \(error)")
    }
    return found
  }
}
