import GeoPhotoCore

/// The gazetteer file: a `SectionedFile` (magic `GPPLACE2`) whose text is NUL-terminated UTF-8
/// in the `strings` section.
enum GazetteerFile {
  static let layout = SectionedFile<Section>(magic: "GPPLACE2")
  typealias Layout = SectionedFile<Section>

  /// The sections, in file order. Places are in the kd-tree's order (`vectors`, `axes`), so a
  /// place's position in the tree is its index in every place column.
  enum Section: Int, CaseIterable {
    case vectors, axes, latitudes, longitudes, names, foldedNames, populations, geonameIDs, admin1, admin2, countries
    case timeZones, weights
    case adminNames, countryCodes, countryNames, timeZoneNames
    case bandHeight, ringCountries, ringStarts, ringBoxes, ringBandStarts, ringPoints, bandStarts, bandEdges,
      cellStarts, cellRings
    case strings
  }

  static func assemble(_ sections: [Section: [UInt8]]) -> [UInt8] { layout.assemble(sections) }
  static func bytes<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] { Layout.bytes(values) }
  static func bytes(_ values: [Double]) -> [UInt8] { Layout.bytes(values) }
  static func bytes(_ values: [Float]) -> [UInt8] { Layout.bytes(values) }

  /// The file's sections; a gazetteer of an older geophoto is said to be one.
  static func reader(_ storage: MappedBytes, name: String) throws(Layout.FormatError) -> Layout.Reader {
    let data = storage.bytes
    if data.count >= 8, Array(data.prefix(8)) != layout.magic, Array(data.prefix(7)) == Array("GPPLACE".utf8) {
      throw Layout.FormatError(
        description: "\(name): a gazetteer of an older geophoto (import it again with 'geophoto places import')")
    }
    return try Layout.Reader(storage, layout: layout, name: name, kind: "gazetteer")
  }
}
