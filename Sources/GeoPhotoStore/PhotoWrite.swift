public import GeoPhotoCore

/// A value bound to a statement, whatever the store.
public enum StoreValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case bool(Bool)

  public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
  public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
  public init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
  public init(_ value: String?) { self = value.map { .text($0) } ?? .null }

  /// An instant in a photo row's time columns (`first_seen`, `updated`, `last_synced`): text.
  public static func text(_ time: IndexTime) -> StoreValue { .text(time.iso8601) }
  /// An instant in a column of seconds (`fetched_at`).
  public static func seconds(_ time: IndexTime) -> StoreValue { .integer(Int64(time.seconds)) }
}

/// How a sync or a fetch writes a photo, the same for every store: which columns, their
/// values, and the rules an update follows. Each store spells the SQL in its dialect from here.
public enum PhotoWrite {
  /// The columns a write sets from a record, in the order of `values(_:)`.
  public static let columns: [PhotoColumn] = [
    .source, .sourceID, .latitude, .longitude, .altitude, .takenAt, .title, .cameraMake, .cameraModel,
    .width, .height, .orientation, .fileSize, .changedNanoseconds, .contentHash, .problem, .url, .thumbnailURL,
    .attribution, .license, .takenUTC, .placeName, .placeAdmin1, .placeAdmin2, .placeCountryCode, .placeDistance,
    .placeGazetteer, .mediaType, .duration, .contentID, .takenLocal, .description, .keywords, .searchText, .placeText,
    .placePopulation, .placeTimeZone, .placeGeonameID, .placeIsCountry, .offsetSource, .timeZone, .offsetAmbiguity,
  ]

  /// The columns of a capture time as naming the place may change it (`placeCaptureTime`).
  public static let capturedColumns: [PhotoColumn] = [
    .takenAt, .takenUTC, .offsetSource, .timeZone, .offsetAmbiguity,
  ]

  /// The columns of a photo's place: written when the record was named (`PhotoRecord.name`),
  /// kept otherwise, and all of them when the index is named again (`assignPlaces`).
  public static let placeColumns: [PhotoColumn] = PlaceColumn.allCases.map(\.column)

  /// What naming the index again writes: the place's columns, then the capture time's.
  public static let renamedColumns = placeColumns + capturedColumns

  /// The record's values for `columns`.
  public static func values(_ record: PhotoRecord) -> [StoreValue] { columns.map { value($0, of: record) } }

  /// Every column but the id: a whole record, as a copy of another index writes it.
  public static let everyColumn = Array(PhotoColumn.record.dropFirst())

  /// The record's values for `everyColumn` (its place, estimate and gazetteer mark as they are).
  public static func everyValue(_ record: PhotoRecord) -> [StoreValue] { everyColumn.map { value($0, of: record) } }

  /// What `record` holds for `column`: the one mapping from the model to the table.
  public static func value(_ column: PhotoColumn, of record: PhotoRecord) -> StoreValue {
    let p = record.photo
    switch column {
    case .id: return .integer(p.id)
    case .source: return .text(p.source.rawValue)
    case .sourceID: return .text(p.sourceID)
    case .latitude: return StoreValue(p.coordinate?.latitude)
    case .longitude: return StoreValue(p.coordinate?.longitude)
    case .altitude: return StoreValue(p.altitude)
    case .takenAt: return StoreValue(p.takenAt?.iso8601)
    case .title: return .text(p.title)
    case .cameraMake: return StoreValue(p.cameraMake)
    case .cameraModel: return StoreValue(p.cameraModel)
    case .width: return StoreValue(p.width)
    case .height: return StoreValue(p.height)
    case .orientation: return StoreValue(p.orientation)
    case .url: return StoreValue(p.url)
    case .thumbnailURL: return StoreValue(p.thumbnailURL)
    case .attribution: return StoreValue(p.attribution)
    case .license: return StoreValue(p.license)
    case .locationEstimated: return .bool(p.locationEstimated)
    case .estimateSource: return StoreValue(p.estimateSource?.text)
    case .placeName: return PlaceColumn.name.value(of: p.place)
    case .placeAdmin1: return PlaceColumn.admin1.value(of: p.place)
    case .placeAdmin2: return PlaceColumn.admin2.value(of: p.place)
    case .placeCountryCode: return PlaceColumn.countryCode.value(of: p.place)
    case .placeDistance: return PlaceColumn.distance.value(of: p.place)
    case .placeText: return PlaceColumn.text.value(of: p.place)
    case .placePopulation: return PlaceColumn.population.value(of: p.place)
    case .placeTimeZone: return PlaceColumn.timeZone.value(of: p.place)
    case .placeGeonameID: return PlaceColumn.geonameID.value(of: p.place)
    case .placeIsCountry: return PlaceColumn.isCountry.value(of: p.place)
    case .mediaType: return .text(p.mediaType.rawValue)
    case .duration: return StoreValue(p.duration)
    case .description: return StoreValue(p.description)
    case .keywords:
      // One per line: a line break inside a keyword becomes a space.
      return p.keywords.isEmpty
        ? .null : .text(p.keywords.map { $0.replacing("\n", with: " ") }.joined(separator: "\n"))
    case .fileSize: return StoreValue(record.file?.size)
    case .changedNanoseconds: return StoreValue(record.file?.changedNanoseconds)
    case .contentHash: return StoreValue(record.file?.contentHash)
    case .problem: return StoreValue(record.problem)
    case .placeGazetteer: return StoreValue(record.placedWith)
    case .takenUTC: return StoreValue(p.takenAt?.instant)
    case .offsetSource: return StoreValue(p.offsetSource?.rawValue)
    case .timeZone: return StoreValue(p.timeZone)
    case .offsetAmbiguity: return StoreValue(p.offsetAmbiguity?.rawValue)
    case .contentID: return StoreValue(record.file?.contentID)
    case .takenLocal: return StoreValue(p.takenAt?.localSecondsSinceEpoch)
    case .searchText: return .text(SearchText.photoText(of: p))
    }
  }

  /// The assignments that write a record over an existing row, in SQL both stores speak:
  /// `new(c)` names the incoming value of column `c`, `old(c)` the row's.
  ///
  /// Beyond "take the new values": a position that was estimated (placed on a GPS track)
  /// survives an update that brings none, until the file itself has GPS; a record that was
  /// named brings its place, and one that was not keeps the row's, whose gazetteer mark is
  /// cleared when the position changed (so it is named again).
  public static func assignments(new: (PhotoColumn) -> String, old: (PhotoColumn) -> String) -> [String] {
    // The file brings no position, or the one estimated (a sidecar geotag wrote): the estimate
    // stays, with its altitude and source. A position placed by hand stays whatever the file
    // brings, and what the file brings is put aside for when the placement is cleared.
    let samePosition =
      "(ABS(\(new(.latitude)) - \(old(.latitude))) < 1e-7 AND ABS(\(new(.longitude)) - \(old(.longitude))) < 1e-7)"
    let byHand = "(\(old(.locationEstimated)) AND \(HandPlacement.isHand(old(.estimateSource))))"
    // The row's own put-aside columns, named as `old` names its columns (`p.` or bare).
    let qualifier = String(old(.latitude).dropLast(PhotoColumn.latitude.name.count))
    func kept(_ column: String) -> String { qualifier + column }
    let keepEstimate =
      "(((\(new(.latitude)) IS NULL OR \(samePosition)) AND \(old(.locationEstimated))) OR \(byHand))"
    let named = "\(new(.placeGazetteer)) IS NOT NULL"
    var sets = [
      "latitude = CASE WHEN \(keepEstimate) THEN \(old(.latitude)) ELSE \(new(.latitude)) END",
      "longitude = CASE WHEN \(keepEstimate) THEN \(old(.longitude)) ELSE \(new(.longitude)) END",
      "altitude = CASE WHEN \(keepEstimate) THEN \(old(.altitude)) ELSE \(new(.altitude)) END",
      "location_source = CASE WHEN \(keepEstimate) THEN \(old(.estimateSource)) END",
      "location_estimated = (\(keepEstimate))",
      // The file giving the hand's own position back (its sidecar, written by the edit) is
      // the edit's echo: what was put aside stays.
      "\(HandPlacement.latitude) = CASE WHEN \(byHand) AND \(samePosition) THEN \(kept(HandPlacement.latitude)) "
        + "WHEN \(byHand) THEN \(new(.latitude)) END",
      "\(HandPlacement.longitude) = CASE WHEN \(byHand) AND \(samePosition) THEN \(kept(HandPlacement.longitude)) "
        + "WHEN \(byHand) THEN \(new(.longitude)) END",
      "\(HandPlacement.altitude) = CASE WHEN \(byHand) AND \(samePosition) THEN \(kept(HandPlacement.altitude)) "
        + "WHEN \(byHand) THEN \(new(.altitude)) END",
      "place_gazetteer = CASE WHEN \(named) THEN \(new(.placeGazetteer)) WHEN \(keepEstimate) THEN \(old(.placeGazetteer)) "
        + "WHEN \(new(.latitude)) IS NOT DISTINCT FROM \(old(.latitude)) "
        + "AND \(new(.longitude)) IS NOT DISTINCT FROM \(old(.longitude)) THEN \(old(.placeGazetteer)) END",
    ]
    for column in placeColumns {
      sets.append("\(column.name) = CASE WHEN \(named) THEN \(new(column)) ELSE \(old(column)) END")
    }
    let special: Set<PhotoColumn> = Set(
      [.latitude, .longitude, .altitude, .estimateSource, .locationEstimated, .placeGazetteer] + placeColumns)
    for column in columns where !special.contains(column) {
      sets.append("\(column.name) = \(new(column))")
    }
    return sets
  }
}

extension PhotoRecord {
  /// Names the photo's place with `namer`, when it has a position: the record then carries
  /// its place and the gazetteer that named it, written with it.
  public mutating func name(with namer: (any PlaceNamer)?) throws {
    guard let namer, let c = photo.coordinate else { return }
    photo.place = try namer.place(for: c)
    if photo.takesZoneFromPlace { photo.placeCaptureTime(in: try namer.timeZone(for: c, named: photo.place)) }
    placedWith = namer.identity
  }
}

/// The columns of a photo's place, in `PhotoWrite.placeColumns`' order: each the photo column
/// it is, and what a photo named `place` holds there.
public enum PlaceColumn: CaseIterable, Sendable {
  case name, admin1, admin2, countryCode, distance, text, population, timeZone, geonameID, isCountry

  public var column: PhotoColumn {
    switch self {
    case .name: .placeName
    case .admin1: .placeAdmin1
    case .admin2: .placeAdmin2
    case .countryCode: .placeCountryCode
    case .distance: .placeDistance
    case .text: .placeText
    case .population: .placePopulation
    case .timeZone: .placeTimeZone
    case .geonameID: .placeGeonameID
    case .isCountry: .placeIsCountry
    }
  }

  public func value(of place: PlaceName?) -> StoreValue {
    switch self {
    case .name: StoreValue(place?.name)
    case .admin1: StoreValue(place?.admin1)
    case .admin2: StoreValue(place?.admin2)
    case .countryCode: StoreValue(place?.countryCode)
    case .distance: StoreValue(place?.distance)
    case .text: .text(SearchText.placeText(of: place))
    case .population: StoreValue(place?.population)
    case .timeZone: StoreValue(place?.timeZone)
    case .geonameID: StoreValue(place?.geonameID)
    case .isCountry: place.map { .bool($0.isCountry) } ?? .null
    }
  }
}
