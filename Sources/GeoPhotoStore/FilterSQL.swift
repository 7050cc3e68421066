public import GeoPhotoCore

/// A filter as SQL over the photos table, the same in every store's dialect (the values go
/// through the store's own placeholders), with the semantics of `TimeRange.matches`.
public enum FilterSQL {
  /// The condition `range` puts on a photo's capture time; `bind` binds a value and returns
  /// its placeholder.
  public static func time(_ range: TimeRange, bind: (Int64) -> String) -> String {
    var parts = ["\(PhotoColumn.takenLocal.name) IS NOT NULL"]
    let utc = PhotoColumn.takenUTC.name
    let local = PhotoColumn.takenLocal.name
    func compare(_ bound: TimeBound, _ op: String, wallClock: Int64) -> String {
      guard let offset = bound.offsetMinutes else { return "\(local) \(op) \(bind(wallClock))" }
      // An instant: compared with the photo's instant, or with a floating time's wall clock.
      let instant = wallClock - Int64(offset) * 60
      return
        "(CASE WHEN \(utc) IS NOT NULL THEN \(utc) \(op) \(bind(instant)) ELSE \(local) \(op) \(bind(wallClock)) END)"
    }
    if let since = range.since { parts.append(compare(since, ">=", wallClock: since.start)) }
    if let until = range.until { parts.append(compare(until, "<", wallClock: until.end)) }
    return parts.joined(separator: " AND ")
  }

  /// The condition a camera filter puts on make and model (`PhotoFilter.camera`): the text,
  /// lower case, inside `lower(make || ' ' || model)`.
  public static func camera(_ text: String, bind: (String) -> String) -> String {
    let escaped = text.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_")
    return
      "lower(coalesce(camera_make, '') || ' ' || coalesce(camera_model, '')) LIKE \(bind("%" + escaped + "%")) ESCAPE '\\'"
  }

  /// The ids as a JSON array, `[1,2,3]`, for a store that reads one (SQLite's `json_each`).
  public static func jsonArray(_ ids: PhotoIDSet) -> String {
    "[" + ids.ids.map(String.init).joined(separator: ",") + "]"
  }

  /// The condition a place filter puts on the place columns (`PlaceFilter.contains`).
  public static func place(_ place: PlaceFilter, bind: (String) -> String) -> String {
    var parts = ["\(PhotoColumn.placeCountryCode.name) = \(bind(place.countryCode))"]
    if let region = place.region {
      parts.append("\(PhotoColumn.placeIsCountry.name) = FALSE")
      parts.append("\(PhotoColumn.placeAdmin1.name) = \(bind(region))")
    }
    if let city = place.city { parts.append("\(PhotoColumn.placeName.name) = \(bind(city))") }
    return "(" + parts.joined(separator: " AND ") + ")"
  }
}
