import GeoPhotoCore

/// The gazetteer file: a `SectionedFile` (magic `GPPLACES`, version 3) whose text is NUL-terminated UTF-8
/// in the `strings` section.
enum GazetteerFile {
  static let layout = Layout(SectionedFile.Kind(magic: "GPPLACES", version: 3, name: "gazetteer"))
  typealias Layout = NamedSections<Section>

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
  static func bytes<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] { SectionedFile.bytes(values) }
  static func bytes(_ values: [Double]) -> [UInt8] { SectionedFile.bytes(values) }
  static func bytes(_ values: [Float]) -> [UInt8] { SectionedFile.bytes(values) }

  /// The file's sections; a gazetteer of an older geophoto is said to be one.
  static func reader(_ storage: MappedBytes, name: String) throws(SectionedFile.FormatError) -> Layout.Reader {
    let data = storage.bytes
    let older = ["GPPLACE1", "GPPLACE2"].map { Array($0.utf8) }
    if data.count >= 8, older.contains(Array(data.prefix(8))) {
      throw SectionedFile.FormatError(
        description: "\(name): a gazetteer of an older geophoto (import it again with 'geophoto places import')")
    }
    return try Layout.Reader(storage, layout: layout, name: name)
  }
}
