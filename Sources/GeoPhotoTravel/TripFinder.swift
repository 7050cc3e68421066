public import GeoPhotoCore

/// What makes a run of photos a trip.
public struct TripRules: Hashable, Sendable {
  /// Photos farther than this from home, in metres, are away.
  public var away: Double
  /// The longest time between two consecutive photos of one trip, in seconds.
  public var gap: Int64
  /// The fewest located photos a trip has.
  public var minimumPhotos: Int

  public init(away: Double = 100_000, gap: Int64 = 36 * 3_600, minimumPhotos: Int = 5) {
    self.away = away
    self.gap = gap
    self.minimumPhotos = minimumPhotos
  }
}

/// Where home is for finding trips.
public enum HomeRule: Hashable, Sendable {
  /// Found from the photos (`HomeFinder`), changing when the photographer moves.
  case auto
  /// One place for the whole timeline, with its name.
  case fixed(Coordinate, label: String)
}

/// Trips found in a timeline of photos (Apple Photos' Trips): each a maximal run of photos
/// taken farther than `rules.away` from home, with no more than `rules.gap` between
/// consecutive ones, and at least `rules.minimumPhotos` of them. Photos without a position
/// belong to the trip they were taken during. A day out closer than `away` is no trip.
public struct TripFinder: Hashable, Sendable {
  public var rules: TripRules
  public var home: HomeRule
  /// The most points of a trip's route line.
  public static let routePoints = 500

  public init(rules: TripRules = TripRules(), home: HomeRule = .auto) {
    self.rules = rules
    self.home = home
  }

  /// The homes and the trips of `photos` (any order), trips by start, latest first;
  /// `countryName` names a country from its code.
  public func trips(in photos: [DatedPhoto], countryName: (String) -> String = { $0 }) -> (
    homes: [HomePeriod], trips: [Trip]
  ) {
    let found = find(in: photos, countryName: countryName)
    return (found.homes, found.trips)
  }

  /// The homes and trips of `photos`, each trip with the photos it was made of (what
  /// `FoundTrips.showing` limits without looking them up again).
  public func find(in photos: [DatedPhoto], countryName: (String) -> String = { $0 }) -> FoundTrips {
    let homes: [HomePeriod]
    switch home {
    case .auto: homes = HomeFinder(away: rules.away).homes(of: photos)
    case .fixed(let c, let label): homes = [HomePeriod(since: LocalDay(number: .min), center: c, label: label)]
    }
    guard !homes.isEmpty else { return FoundTrips(homes: [], trips: [], photos: []) }
    var located: [LocatedPhoto] = []
    var unlocated: [(instant: Int64, id: Int64, localTime: Int64)] = []
    located.reserveCapacity(photos.count)
    for photo in photos {
      if let c = photo.coordinate {
        located.append(LocatedPhoto(photo: photo, coordinate: c))
      } else {
        unlocated.append((photo.instant, photo.id, photo.localTime))
      }
    }
    located.sort { ($0.photo.instant, $0.photo.id) < ($1.photo.instant, $1.photo.id) }
    unlocated.sort { ($0.instant, $0.id) < ($1.instant, $1.id) }

    let homeVectors = homes.map { GreatCircle.unitVector($0.center) }
    let limit = GreatCircle.squaredChord(forDistance: rules.away)
    var trips: [(trip: Trip, photos: [DatedPhoto])] = []
    var run: [Int] = []
    var homeIndex = 0
    func close() {
      if run.count >= rules.minimumPhotos {
        trips.append(
          trip(run.map { located[$0] }, unlocated: unlocated, home: homes[homeIndex], countryName: countryName))
      }
      run.removeAll(keepingCapacity: true)
    }
    for (i, entry) in located.enumerated() {
      let photo = entry.photo
      let day = LocalDay(seconds: photo.localTime)
      // Homes change forward in time; local days go backwards only across a zone change.
      while homeIndex + 1 < homes.count, homes[homeIndex + 1].since <= day { homeIndex += 1 }
      while homeIndex > 0, homes[homeIndex].since > day { homeIndex -= 1 }
      let h = homeVectors[homeIndex]
      let v = GreatCircle.unitVector(entry.coordinate)
      let chord = (v.x - h.x) * (v.x - h.x) + (v.y - h.y) * (v.y - h.y) + (v.z - h.z) * (v.z - h.z)
      guard chord > limit else {
        close()
        continue
      }
      if let last = run.last, photo.instant - located[last].photo.instant > rules.gap { close() }
      run.append(i)
    }
    close()
    trips.sort { ($0.trip.startInstant, $0.trip.id) > ($1.trip.startInstant, $1.trip.id) }
    return FoundTrips(homes: homes, trips: trips.map(\.trip), photos: trips.map(\.photos))
  }

  /// The trips of `photos` (the whole timeline: home is found from all of it), each limited to
  /// the photos `isShown` keeps (`FoundTrips.showing`).
  public func trips(
    in photos: [DatedPhoto], showing isShown: ((DatedPhoto) -> Bool)?, countryName: (String) -> String = { $0 }
  ) -> (homes: [HomePeriod], trips: [Trip]) {
    find(in: photos, countryName: countryName).showing(isShown)
  }

  /// A photo with its position.
  struct LocatedPhoto {
    var photo: DatedPhoto
    var coordinate: Coordinate
  }

  /// The trip of `located` photos (in time order), with the photos of `unlocated` (by time)
  /// taken between its first and last.
  func trip(
    _ located: [LocatedPhoto], unlocated: [(instant: Int64, id: Int64, localTime: Int64)], home: HomePeriod,
    countryName: (String) -> String
  ) -> (trip: Trip, photos: [DatedPhoto]) {
    let start = located[0].photo.instant
    let end = located[located.count - 1].photo.instant
    // The photos without a position from `start` to `end`, by binary search.
    var low = 0
    var high = unlocated.count
    while low < high {
      let mid = (low + high) / 2
      if unlocated[mid].instant < start { low = mid + 1 } else { high = mid }
    }
    var photos = located.map(\.photo)
    var k = low
    while k < unlocated.count, unlocated[k].instant <= end {
      let u = unlocated[k]
      photos.append(DatedPhoto(id: u.id, coordinate: nil, instant: u.instant, localTime: u.localTime))
      k += 1
    }
    photos.sort { ($0.instant, $0.id) < ($1.instant, $1.id) }
    return (Trip(photos: photos, home: home, countryName: countryName), photos)
  }

  /// Positions in order, repeats dropped and simplified to at most `routePoints`: longitudes
  /// unwrapped across the antimeridian for the simplification, then brought back.
  static func route(_ coordinates: [Coordinate]) -> [Coordinate] {
    var path: [SIMD2<Double>] = []
    path.reserveCapacity(coordinates.count)
    var shift = 0.0
    var previous: Coordinate?
    for c in coordinates {
      if let p = previous {
        if c == p { continue }
        let step = c.longitude - p.longitude
        if step > 180 { shift -= 360 } else if step < -180 { shift += 360 }
      }
      path.append(SIMD2(c.longitude + shift, c.latitude))
      previous = c
    }
    guard path.count > 2 else { return path.map(Self.coordinate) }
    var low = path[0]
    var high = path[0]
    for p in path {
      low = pointwiseMin(low, p)
      high = pointwiseMax(high, p)
    }
    let extent = max(high.x - low.x, high.y - low.y)
    var tolerance = max(1e-7, extent / 2_000)
    var kept = PathSimplification.simplify(path, tolerance: tolerance)
    while kept.count > routePoints {
      tolerance *= 2
      kept = PathSimplification.simplify(path, tolerance: tolerance)
    }
    return kept.map(Self.coordinate)
  }

  static func coordinate(_ p: SIMD2<Double>) -> Coordinate {
    var longitude = p.x.truncatingRemainder(dividingBy: 360)
    if longitude >= 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
    return Coordinate(latitude: p.y, longitude: longitude)
  }
}

/// Trips as they were found, each with its photos in time order: what answers limit to the
/// photos they may show (a filter, privacy zones, a shared link's scope) without finding the
/// trips again.
public struct FoundTrips: Sendable {
  public var homes: [HomePeriod]
  /// Latest first.
  public var trips: [Trip]
  /// Each trip's photos, in time order.
  var photos: [[DatedPhoto]]

  /// The homes and the trips, each limited to the photos `isShown` keeps (its id, name and
  /// home kept; `Trip.restricted`); trips left with no located photo are dropped. All of them
  /// as found when `isShown` is nil.
  public func showing(_ isShown: ((DatedPhoto) -> Bool)?) -> (homes: [HomePeriod], trips: [Trip]) {
    guard let isShown else { return (homes, trips) }
    return (homes, zip(trips, photos).compactMap { trip, photos in trip.restricted(to: photos, where: isShown) })
  }
}
