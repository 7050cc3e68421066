/// A position placed by hand over one the photo's file recorded: the file's is put aside in
/// `file_latitude`, `file_longitude` and `file_altitude` (NULL otherwise), so that clearing
/// the placement gives it back, and a sync that reads the file again updates it there while
/// the hand's position stays. The SQL both stores speak.
public enum HandPlacement {
  /// The columns the file's position is put aside in.
  public static let latitude = "file_latitude"
  public static let longitude = "file_longitude"
  public static let altitude = "file_altitude"

  /// A row whose position was placed by hand (`EstimateSource.Kind.hand`'s stored text).
  public static func isHand(_ source: String) -> String { "(COALESCE(\(source), '') LIKE 'hand%')" }

  /// The assignments that place a row by hand at the values `latitude` and `longitude`
  /// name, putting a recorded position aside first.
  public static func placing(latitude: String, longitude: String, source: String) -> [String] {
    let recorded = "(location_estimated = FALSE AND latitude IS NOT NULL)"
    return [
      "\(Self.latitude) = CASE WHEN \(recorded) THEN latitude ELSE \(Self.latitude) END",
      "\(Self.longitude) = CASE WHEN \(recorded) THEN longitude ELSE \(Self.longitude) END",
      "\(Self.altitude) = CASE WHEN \(recorded) THEN altitude ELSE \(Self.altitude) END",
      "latitude = \(latitude)", "longitude = \(longitude)", "altitude = NULL", "location_source = \(source)",
      "location_estimated = TRUE", "place_gazetteer = NULL",
    ]
  }

  /// The assignments that clear an estimated position: the file's, put aside, comes back
  /// (recorded, not estimated), or none.
  public static let clearing = [
    "latitude = \(latitude)", "longitude = \(longitude)", "altitude = \(altitude)", "location_source = NULL",
    "location_estimated = FALSE", "place_gazetteer = NULL", "\(latitude) = NULL", "\(longitude) = NULL",
    "\(altitude) = NULL",
  ]
}
