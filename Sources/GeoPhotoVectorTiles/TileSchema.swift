/// Which layers and fields an archive's vector tiles follow, told from the layers it declares
/// (and its name): the style has a table for each.
public enum TileSchema: String, Sendable, Equatable {
  /// OpenMapTiles: tilemaker's and planetiler's OpenMapTiles profiles, MapTiler's files
  /// (`transportation`, `place`, `water`, …).
  case openMapTiles = "OpenMapTiles"
  /// Protomaps' basemap, version 4 (`earth`, `roads`, `places`, `water`, …).
  case protomaps = "Protomaps"
  /// Anything else: drawn by geometry with a neutral style.
  case generic = "generic"

  /// The schema of an archive that declares the layers `ids`.
  public static func detect(layers ids: Set<String>) -> TileSchema {
    if ids.isSuperset(of: ["earth", "roads", "places", "water"]) { return .protomaps }
    if ids.isSuperset(of: ["transportation", "place", "water"]) { return .openMapTiles }
    return .generic
  }
}
