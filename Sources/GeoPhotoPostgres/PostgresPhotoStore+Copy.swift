public import GeoPhotoCore
public import GeoPhotoStore

extension PostgresPhotoStore {
  /// Rows per INSERT of a copy: 28 parameters each stay well under PostgreSQL's 65,535.
  static let rowsPerStatement = 1_000

  /// Writes rows as they are, place names and estimates included (a copy from another
  /// index, not a sync), in one transaction; returns their ids in order.
  ///
  /// Rows go in multi-row statements of up to `rowsPerStatement` (one round trip each rather
  /// than one a photo); a photo listed twice is written once, as its last version.
  @discardableResult
  public func copy(_ records: [PhotoRecord]) throws -> [Int64] {
    let listings = PhotoKey.lastListings(records)
    return try write {
      var ids: [PhotoKey: Int64] = [:]
      for start in stride(from: 0, to: listings.count, by: Self.rowsPerStatement) {
        let chunk = listings[start..<min(listings.count, start + Self.rowsPerStatement)]
        let parameters = chunk.flatMap(PhotoWrite.everyValue)
        for row in try change(PostgresSQL.copy(rows: chunk.count), parameters) {
          guard let id = row.int64(at: 0), let key = PhotoKey(row.text(at: 1), row.text(at: 2)) else { continue }
          ids[key] = id
        }
      }
      return records.map { ids[PhotoKey($0.photo)] ?? 0 }
    }
  }

  /// Photos without file state, copied as they are.
  @discardableResult
  public func copy(_ photos: [Photo]) throws -> [Int64] {
    try copy(photos.map { PhotoRecord(photo: $0) })
  }
}
