import Foundation
public import GeoPhotoCore

/// The rule that names a position as a local would (measured on landmarks and on reported
/// wrong answers of nearest-centre naming):
///
/// 1. (0, 0) and out-of-range positions are no location.
/// 2. The country the position lies in, by the outlines (none at sea).
/// 3. The candidates are the places within `radius` (25 km); when the position is in a country
///    and some candidate is in it, only those (a point in Windsor, Ontario is not named after a
///    suburb of Detroit).
/// 4. The candidate with the largest `weight / max(km, 0.2)`, `weight` = population^0.2 (a place
///    listed with fewer than 500 people — a seat of a division — counts as 3,000); ties to the
///    nearer, then to the place listed first. Neighbourhoods stay candidates: Tokyo's wards and
///    Sydney's suburbs are coded that way.
/// 5. No candidate but a country: the country's name alone; otherwise no place.
public enum PlaceRule {
  /// Distances below this count as this, in kilometres: a photo at a place's centre does not
  /// outweigh every city around.
  public static let nearest = 0.2
  /// The population a place listed with fewer than `listedPopulation` people counts as.
  public static let seatPopulation = 3_000
  public static let listedPopulation = 500

  /// A place's weight: its population (as the rule counts it) to the power 0.2.
  public static func weight(population: Int) -> Double {
    pow(Double(population >= listedPopulation ? population : seatPopulation), 0.2)
  }

  /// The most a place of `weight` can score at `squaredChord` (on the unit sphere) or farther:
  /// the chord is shorter than the arc, so no `asin` is needed to rule a place out.
  @inline(__always)
  public static func most(weight: Double, squaredChord: Double) -> Double {
    weight / max(squaredChord.squareRoot() * GreatCircle.earthRadius / 1000, nearest)
  }

  /// How strongly a place of `weight` at `distance` metres names a position.
  @inline(__always)
  public static func score(weight: Double, distance: Double) -> Double { weight / max(distance / 1000, nearest) }
}

/// What the rule names a position after.
public enum PlaceMatch: Hashable, Sendable {
  /// A place (its position in the gazetteer) at `distance` metres.
  case place(Int, distance: Double)
  /// No place near enough, but a country (its index).
  case country(Int)
}

extension Gazetteer {
  /// What `PlaceRule` names `c` after, with candidates within `radius` metres.
  public func match(at c: Coordinate, within radius: Double = 25_000) -> PlaceMatch? {
    guard c.isPlausiblePhotoLocation else { return nil }
    // Where the position's 1° cell meets the outlines of one country at most, the position
    // lies in that country or in none, so the best place of all is the answer whenever it is
    // in that country (or the cell meets none): no ring needs testing. Otherwise the ring test
    // says which country the position is in, and only when it is in one that the best place
    // is not in does the walk run again for the best place in it.
    let near = outlines.countries(near: c)
    let country: UInt16?
    if near == .several {
      country = outlines.country(at: c).map(UInt16.init)
    } else {
      var walk = RuleWalk(weights: weights, heaviest: heaviest, countries: countries, country: nil)
      index.visit(within: radius, of: c, &walk)
      guard let best = walk.best else {
        // No place near: the country alone, when the position is in one.
        return near == .none ? nil : outlines.country(at: c).map { .country($0) }
      }
      let found = PlaceMatch.place(best.position, distance: GreatCircle.distance(squaredChord: best.d2))
      if near == .none || near == .one(countries[best.position]) { return found }
      guard let k = outlines.country(at: c).map(UInt16.init) else { return found }
      country = k
    }
    var walk = RuleWalk(weights: weights, heaviest: heaviest, countries: countries, country: country)
    index.visit(within: radius, of: c, &walk)
    if let chosen = walk.bestInCountry ?? walk.best {
      return .place(chosen.position, distance: GreatCircle.distance(squaredChord: chosen.d2))
    }
    return country.map { .country(Int($0)) }
  }

  /// The place name `PlaceRule` gives `c`, as photos carry it.
  public func placeName(at c: Coordinate, within radius: Double = 25_000) -> PlaceName? {
    switch match(at: c, within: radius) {
    case .place(let i, let distance):
      let p = place(i)
      return PlaceName(
        name: p.name, admin1: p.admin1, admin2: p.admin2, countryCode: p.countryCode, distance: distance,
        population: p.population, timeZone: p.timeZone.isEmpty ? nil : p.timeZone,
        geonameID: p.geonameID == 0 ? nil : p.geonameID)
    case .country(let k):
      let (code, name) = country(k)
      return PlaceName(country: name, code: code)
    case nil: return nil
    }
  }
}

extension Gazetteer {
  /// How far the nearest place's zone reaches for a position no place names.
  public static let zoneReach = 100_000.0

  /// The time zone a local time taken at `c` (named `place`) is read in: the named place's;
  /// with no place near, the nearest place's within `zoneReach`; else the nautical zone of
  /// the longitude (at sea).
  public func timeZone(at c: Coordinate, named place: PlaceName?) -> (identifier: String, source: OffsetSource)? {
    guard c.isPlausiblePhotoLocation else { return nil }
    if let zone = place?.timeZone, !zone.isEmpty { return (zone, .place) }
    if let hit = index.nearest(to: c, limit: 1, maximumDistance: Self.zoneReach).first {
      let zone = string(at: timeZoneNames[Int(timeZones[Int(hit.id)])])
      if !zone.isEmpty { return (zone, .place) }
    }
    return (CaptureDate.nauticalZone(longitude: c.longitude), .sea)
  }
}

/// The naming rule's walk over the places within the radius: the best candidate of all, and
/// the best in the position's country.
struct RuleWalk: RadiusVisitor {
  typealias Candidate = (position: Int, score: Double, d2: Double)
  let weights: UnsafeBufferPointer<Double>
  let heaviest: [Float]
  let countries: UnsafeBufferPointer<UInt16>
  /// The position's country, nil at sea.
  let country: UInt16?
  var best: Candidate?
  var bestInCountry: Candidate?

  /// The score that decides: the best in the country once there is one (or the best of all
  /// when the position is in none).
  var decidingScore: Double? { (country == nil ? best : bestInCountry)?.score }

  /// A range whose heaviest place, as near as the range can be, scores less than the deciding
  /// score cannot change the answer.
  func skips(split: Int, squaredChord: Double) -> Bool {
    guard let score = decidingScore else { return false }
    return PlaceRule.most(weight: Double(heaviest[split]), squaredChord: squaredChord) < score
  }

  mutating func visit(position: Int, squaredChord d2: Double) {
    // A place that cannot reach the best scores so far is passed without its exact distance.
    let weight = weights[position]
    let most = PlaceRule.most(weight: weight, squaredChord: d2)
    let inCountry = country != nil && countries[position] == country
    if let best, most < best.score, !inCountry || most < (bestInCountry?.score ?? -1) { return }
    let candidate = (position, PlaceRule.score(weight: weight, distance: GreatCircle.distance(squaredChord: d2)), d2)
    if Self.better(candidate, than: best) { best = candidate }
    if inCountry, Self.better(candidate, than: bestInCountry) { bestInCountry = candidate }
  }

  /// Higher scores win, then the nearer, then the place listed first.
  static func better(_ a: Candidate, than b: Candidate?) -> Bool {
    guard let b else { return true }
    if a.score != b.score { return a.score > b.score }
    if a.d2 != b.d2 { return a.d2 < b.d2 }
    return a.position < b.position
  }
}
