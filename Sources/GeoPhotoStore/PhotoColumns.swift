public import GeoPhotoCore

/// The photos table as every store has it: the columns a photo is read from, in one order,
/// and the one decoding of a row into a `Photo`, a `PhotoRecord` or a `KnownFile` (GRDB's
/// `FetchableRecord.init(row:)`). A new column is a case here, a migration in each store's
/// schema, and a line in the decoding and in `PhotoWrite`.
public enum PhotoColumn: Int, CaseIterable, Sendable {
  case id, source, sourceID, latitude, longitude, altitude, takenAt, title, cameraMake, cameraModel
  case width, height, orientation, url, thumbnailURL, attribution, license, locationEstimated
  case placeName, placeAdmin1, placeAdmin2, placeCountryCode, placeDistance, mediaType, duration
  /// A description, and the keywords one per line (NULL when there are none).
  case description, keywords
  /// The place's population, time zone and GeoNames id, and whether it names only the country.
  case placePopulation, placeTimeZone, placeGeonameID, placeIsCountry
  /// Where the capture time's offset comes from, the zone it was read in, and whether that
  /// zone skips or doubles the local time.
  case offsetSource, timeZone, offsetAmbiguity
  /// Where an estimated position came from (`EstimateSource.text`).
  case estimateSource
  // A record's file state follows the photo's columns, then what the store derives.
  case fileSize, changedNanoseconds, contentHash, problem, placeGazetteer
  /// The capture time as a UTC instant (seconds since 1970), NULL for a floating time: the
  /// column time filters compare, kept from `takenAt`.
  case takenUTC
  /// The primary file's Live Photo identifier (`FileState.contentID`).
  case contentID
  /// The capture time's wall clock in seconds since 1970 (as if UTC), NULL without a capture
  /// time: what time filters compare floating times and local periods with.
  case takenLocal
  /// What a text filter searches besides the place (`SearchText.photoText(of:)`), and the
  /// place's part (`SearchText.placeText(of:)`), kept from the photo's fields.
  case searchText, placeText

  /// The column's name in SQL.
  public var name: String {
    switch self {
    case .id: return "id"
    case .source: return "source"
    case .sourceID: return "source_id"
    case .latitude: return "latitude"
    case .longitude: return "longitude"
    case .altitude: return "altitude"
    case .takenAt: return "taken_at"
    case .title: return "title"
    case .cameraMake: return "camera_make"
    case .cameraModel: return "camera_model"
    case .width: return "width"
    case .height: return "height"
    case .orientation: return "orientation"
    case .url: return "url"
    case .thumbnailURL: return "thumbnail_url"
    case .attribution: return "attribution"
    case .license: return "license"
    case .locationEstimated: return "location_estimated"
    case .placeName: return "place_name"
    case .placeAdmin1: return "place_admin1"
    case .placeAdmin2: return "place_admin2"
    case .placeCountryCode: return "place_cc"
    case .placeDistance: return "place_distance"
    case .mediaType: return "media_type"
    case .duration: return "duration"
    case .description: return "description"
    case .keywords: return "keywords"
    case .placePopulation: return "place_population"
    case .placeTimeZone: return "place_time_zone"
    case .placeGeonameID: return "place_geoname_id"
    case .placeIsCountry: return "place_is_country"
    case .offsetSource: return "offset_source"
    case .timeZone: return "time_zone"
    case .offsetAmbiguity: return "offset_ambiguity"
    case .estimateSource: return "location_source"
    case .fileSize: return "file_size"
    case .changedNanoseconds: return "modified_ns"
    case .contentHash: return "content_hash"
    case .problem: return "problem"
    case .placeGazetteer: return "place_gazetteer"
    case .takenUTC: return "taken_utc"
    case .contentID: return "content_id"
    case .takenLocal: return "taken_local"
    case .searchText: return "search_text"
    case .placeText: return "place_text"
    }
  }

  /// The columns of a `Photo`, in this order.
  public static let photo = Array(allCases.prefix { $0 != .fileSize })
  /// The columns of a `PhotoRecord`: the photo's, then its file state.
  public static let record = allCases

  /// The columns an `Annotation` is made from (`Annotation(photo:distance:)`, the source id for
  /// a local photo's path) and an export writes: a page of an export reads only these.
  public static let annotation: Set<PhotoColumn> = [
    .id, .source, .sourceID, .latitude, .longitude, .altitude, .takenAt, .title, .url, .thumbnailURL, .attribution,
    .locationEstimated, .estimateSource, .placeName, .placeAdmin1, .placeAdmin2, .placeCountryCode, .placeDistance,
    .mediaType,
    .duration, .placePopulation, .placeTimeZone, .placeGeonameID, .placeIsCountry, .offsetSource, .timeZone,
    .offsetAmbiguity,
  ]

  /// A photo's columns before the "place details" migration: what earlier migrations read.
  public static let beforePlaceDetails = Set(photo).subtracting([
    .placePopulation, .placeTimeZone, .placeGeonameID, .placeIsCountry, .offsetSource, .timeZone, .offsetAmbiguity,
    .estimateSource,
  ])

  /// `id, source, source_id, …` for a SELECT of `photo`.
  public static let photoList = photo.map(\.name).joined(separator: ", ")
  /// The same for `record`.
  public static let recordList = record.map(\.name).joined(separator: ", ")
}

/// A result row as a store's driver gives it: typed values by column position, nil for NULL
/// (GRDB's `Row`, postgres-nio's `PostgresRow`). Positions follow the SELECT's column list.
public protocol PhotoRow {
  func int64(at index: Int) -> Int64?
  func double(at index: Int) -> Double?
  func text(at index: Int) -> String?
  func bool(at index: Int) -> Bool?
  /// The text's UTF-8 bytes lent to `body`, nil for NULL: for columns read as something
  /// other than a string (a capture time, a media type), where making the string is waste.
  func withUTF8<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R?
}

extension PhotoRow {
  /// The bytes of `text(at:)`, for drivers that hand out strings only.
  @inlinable public func withUTF8<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
    guard var text = text(at: index) else { return nil }
    return text.withUTF8(body)
  }
}

// Inlinable, so each store's row type gets a decoding of its own (no generic dispatch per
// column on the `near` path).
extension PhotoRow {
  @inlinable public func int64(_ column: PhotoColumn) -> Int64? { int64(at: column.rawValue) }
  @inlinable public func double(_ column: PhotoColumn) -> Double? { double(at: column.rawValue) }
  @inlinable public func text(_ column: PhotoColumn) -> String? { text(at: column.rawValue) }
  @inlinable public func bool(_ column: PhotoColumn) -> Bool? { bool(at: column.rawValue) }
  @inlinable public func withUTF8<R>(_ column: PhotoColumn, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
    withUTF8(at: column.rawValue, body)
  }
  /// The case of `T` the column names by its raw value, read from the bytes; nil for NULL and
  /// for a name `T` does not have.
  @inlinable public func named<T: CaseIterable & RawRepresentable>(_ column: PhotoColumn, as type: T.Type) -> T?
  where T.RawValue == String {
    withUTF8(column) { bytes in
      T.allCases.first { name in
        var raw = name.rawValue
        return raw.withUTF8 { $0.elementsEqual(bytes) }
      }
    } ?? nil
  }
}

/// A SELECT of some of a photo's columns (an export reads only those it writes), and its rows
/// read as rows of every photo column: a column not selected reads as NULL, without asking the
/// driver, so `Photo(row:)` decodes them unchanged.
public struct PhotoSelection: Sendable {
  /// The selected columns' names, in the order of `PhotoColumn.photo`.
  public let list: String
  /// Per column of `PhotoColumn.photo`: its position in the SELECT, or -1.
  @usableFromInline let positions: [Int]

  public init(_ columns: Set<PhotoColumn>) {
    let selected = PhotoColumn.photo.filter(columns.contains)
    list = selected.map(\.name).joined(separator: ", ")
    positions = PhotoColumn.photo.map { selected.firstIndex(of: $0) ?? -1 }
  }

  /// `row` (a row of `list`) read by photo column.
  @inlinable public func row<Base: PhotoRow>(_ row: Base) -> Row<Base> { Row(base: row, positions: positions) }

  public struct Row<Base: PhotoRow>: PhotoRow {
    @usableFromInline let base: Base
    @usableFromInline let positions: [Int]

    @inlinable init(base: Base, positions: [Int]) {
      self.base = base
      self.positions = positions
    }

    @inlinable func position(_ index: Int) -> Int? {
      index < positions.count && positions[index] >= 0 ? positions[index] : nil
    }
    @inlinable public func int64(at index: Int) -> Int64? { position(index).flatMap(base.int64(at:)) }
    @inlinable public func double(at index: Int) -> Double? { position(index).flatMap(base.double(at:)) }
    @inlinable public func text(at index: Int) -> String? { position(index).flatMap(base.text(at:)) }
    @inlinable public func bool(at index: Int) -> Bool? { position(index).flatMap(base.bool(at:)) }
    @inlinable public func withUTF8<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
      guard let position = position(index) else { return nil }
      return base.withUTF8(at: position, body)
    }
  }
}

extension Photo {
  /// A photo from a row that starts with `PhotoColumn.photo`.
  @inlinable
  public init(row: some PhotoRow) {
    self.init(id: 0, source: .local, sourceID: "", title: "")
    read(row)
  }

  /// Every member of the photo set from `row` (one that starts with `PhotoColumn.photo`):
  /// `init(row:)`, and a reader that lends one photo per row sets the same photo again (a new
  /// photo per row is made and then copied whole, half a kilobyte with a retain per string).
  @inlinable
  public mutating func read(_ row: some PhotoRow) {
    id = row.int64(.id) ?? 0
    source = PhotoSource(rawValue: row.text(.source) ?? "")
    sourceID = row.text(.sourceID) ?? ""
    coordinate = nil
    if let lat = row.double(.latitude), let lon = row.double(.longitude) {
      coordinate = Coordinate(latitude: lat, longitude: lon)
    }
    altitude = row.double(.altitude)
    takenAt = row.withUTF8(.takenAt, CaptureDate.init(iso8601UTF8:)) ?? nil
    offsetSource = row.named(.offsetSource, as: OffsetSource.self)
    timeZone = row.text(.timeZone)
    offsetAmbiguity = row.named(.offsetAmbiguity, as: LocalTimeAmbiguity.self)
    title = row.text(.title) ?? ""
    cameraMake = row.text(.cameraMake)
    cameraModel = row.text(.cameraModel)
    width = row.int64(.width).map { Int($0) }
    height = row.int64(.height).map { Int($0) }
    orientation = row.int64(.orientation).map { Int($0) }
    url = row.text(.url)
    thumbnailURL = row.text(.thumbnailURL)
    attribution = row.text(.attribution)
    license = row.text(.license)
    locationEstimated = row.bool(.locationEstimated) ?? false
    estimateSource = locationEstimated ? row.text(.estimateSource).flatMap(EstimateSource.init(text:)) : nil
    place = row.text(.placeName).map {
      var place = PlaceName(
        name: $0, admin1: row.text(.placeAdmin1) ?? "", admin2: row.text(.placeAdmin2) ?? "",
        countryCode: row.text(.placeCountryCode) ?? "", distance: row.double(.placeDistance) ?? 0,
        population: row.int64(.placePopulation).map { Int($0) }, timeZone: row.text(.placeTimeZone),
        geonameID: row.int64(.placeGeonameID).map { Int($0) })
      place.isCountry = row.bool(.placeIsCountry) ?? false
      return place
    }
    mediaType = row.named(.mediaType, as: MediaType.self) ?? .photo
    duration = row.double(.duration)
    description = row.text(.description)
    keywords = row.text(.keywords).map { $0.split(separator: "\n").map(String.init) } ?? []
  }
}

extension PhotoRecord {
  /// A record from a row that starts with `PhotoColumn.record`.
  @inlinable
  public init(row: some PhotoRow) {
    var file: FileState?
    if let size = row.int64(.fileSize), let changed = row.int64(.changedNanoseconds), let hash = row.text(.contentHash)
    {
      file = FileState(size: size, changedNanoseconds: changed, contentHash: hash, contentID: row.text(.contentID))
    }
    self.init(photo: Photo(row: row), file: file, problem: row.text(.problem), placedWith: row.int64(.placeGazetteer))
  }
}

extension KnownFile {
  /// The columns of a `KnownFile` from the photos table, in this order; the members table
  /// (`MemberColumn`) gives the same six.
  public static let columns: [PhotoColumn] = [.id, .sourceID, .fileSize, .changedNanoseconds, .contentHash, .contentID]
  public static let columnList = columns.map(\.name).joined(separator: ", ")

  /// A known file from a row of `columns` (or `MemberColumn.knownList`, then its role).
  public init(row: some PhotoRow, role: FileRole = .primary) {
    self.init(
      id: row.int64(at: 0) ?? 0, path: row.text(at: 1) ?? "",
      state: FileState(
        size: row.int64(at: 2) ?? 0, changedNanoseconds: row.int64(at: 3) ?? 0, contentHash: row.text(at: 4) ?? "",
        contentID: row.text(at: 5)),
      role: role)
  }
}

/// The members table: a photo's files besides its primary one, keyed by path.
public enum MemberColumn: Int, CaseIterable, Sendable {
  case photoID, path, role, fileSize, changedNanoseconds, contentHash, contentID

  public var name: String {
    switch self {
    case .photoID: return "photo_id"
    case .path: return "path"
    case .role: return "role"
    case .fileSize: return "file_size"
    case .changedNanoseconds: return "modified_ns"
    case .contentHash: return "content_hash"
    case .contentID: return "content_id"
    }
  }

  /// Every column, in order, for a SELECT or an INSERT.
  public static let list = allCases.map(\.name).joined(separator: ", ")
  /// The columns of a `KnownFile`, then the role.
  public static let knownList = [photoID, path, fileSize, changedNanoseconds, contentHash, contentID, role].map(\.name)
    .joined(separator: ", ")

  /// A member's values in `allCases` order.
  public static func values(_ m: MemberFile, of photo: Int64) -> [StoreValue] {
    [
      .integer(photo), .text(m.path), .text(m.role.rawValue), .integer(m.state.size),
      .integer(m.state.changedNanoseconds), .text(m.state.contentHash), StoreValue(m.state.contentID),
    ]
  }
}

extension KnownFile {
  /// A member file from a row of `MemberColumn.knownList`.
  public init(memberRow row: some PhotoRow) {
    self.init(row: row, role: row.text(at: 6).flatMap(FileRole.init(rawValue:)) ?? .alternate)
  }
}

extension MemberFile {
  /// A member from a row of `MemberColumn.list`.
  public init(row: some PhotoRow) {
    self.init(
      path: row.text(at: 1) ?? "", role: row.text(at: 2).flatMap(FileRole.init(rawValue:)) ?? .alternate,
      state: FileState(
        size: row.int64(at: 3) ?? 0, changedNanoseconds: row.int64(at: 4) ?? 0, contentHash: row.text(at: 5) ?? "",
        contentID: row.text(at: 6)))
  }
}
