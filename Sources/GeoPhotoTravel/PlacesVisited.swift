public import GeoPhotoCore

/// How deep a tree of places visited goes: countries, their first-level regions, their cities.
public enum PlaceLevel: String, CaseIterable, Sendable {
  case country, region, city
}

/// The order of places at each level of the tree.
public enum PlaceOrder: String, CaseIterable, Sendable {
  /// Most photos first.
  case count
  /// By name.
  case name
  /// By the first visit, earliest first.
  case date
}

/// A place where photos were taken: a country, a region in it, or a city in that, with what
/// its photos tell: how many, the first and last day (local), one photo that stands for it
/// (the one nearest their centre), and the box around them.
public struct VisitedPlace: Hashable, Sendable {
  public var level: PlaceLevel
  /// The country's name, the region's, or the city's.
  public var name: String
  public var countryCode: String
  /// The region's name (for a region and its cities); empty for a country.
  public var region: String
  public var photos: Int
  public var first: LocalDay
  public var last: LocalDay
  /// The id of the photo nearest the centre of the place's photos.
  public var representative: Int64
  public var bounds: BoundingBox
  /// Regions of a country, cities of a region (down to the level asked for).
  public var children: [VisitedPlace]

  /// What names the place in a path or a link, unique in its tree: `JP`, `JP/Tokyo`,
  /// `JP/Tokyo/Chūō` (a region without a name is empty: `NO//Longyearbyen`).
  public var key: String {
    switch level {
    case .country: countryCode
    case .region: "\(countryCode)/\(region)"
    case .city: "\(countryCode)/\(region)/\(name)"
    }
  }
}

/// Where the photos were taken, as a tree of places with counts (Lightroom's Location filter,
/// PhotoPrism's country, state and city filters): countries, then regions, then cities, from
/// the places the gazetteer named. Photos with no place (far from any, at sea) are counted
/// in `unnamed`; photos named only by their country count for the country alone.
public struct PlacesVisited: Sendable {
  public var countries: [VisitedPlace]
  /// Located photos with no place named.
  public var unnamed: Int

  /// The tree of `photos` (those without a position are left out) down to `level`, each
  /// level ordered by `order`; `countryName` gives a country's name from its code.
  public init(
    _ photos: [DatedPhoto], level: PlaceLevel = .city, order: PlaceOrder = .count,
    countryName: (String) -> String = { $0 }
  ) {
    // The photos of each shared place first (one reference compared per photo), then places
    // merged by their names into countries, regions and cities.
    var unnamed = 0
    var byShared: [ObjectIdentifier: (place: PlaceName, members: [Int])] = [:]
    var vectors = [(x: Double, y: Double, z: Double)](repeating: (0, 0, 0), count: photos.count)
    for i in photos.indices {
      guard let c = photos[i].coordinate else { continue }
      guard let shared = photos[i].sharedPlace, !shared.name.countryCode.isEmpty else {
        unnamed += 1
        continue
      }
      vectors[i] = GreatCircle.unitVector(c)
      byShared[ObjectIdentifier(shared), default: (shared.name, [])].members.append(i)
    }
    self.unnamed = unnamed
    var tree: [String: [String: [String: [Int]]]] = [:]
    var countryOnly: [String: [Int]] = [:]
    for (_, group) in byShared {
      let place = group.place
      if place.isCountry {
        countryOnly[place.countryCode, default: []] += group.members
      } else {
        tree[place.countryCode, default: [:]][place.admin1, default: [:]][place.name, default: []] += group.members
      }
    }
    let groups = Groups(photos: photos, vectors: vectors)
    var countries: [VisitedPlace] = []
    for code in Set(tree.keys).union(countryOnly.keys) {
      let regions = tree[code] ?? [:]
      var regionPlaces: [VisitedPlace] = []
      var all = countryOnly[code] ?? []
      for (regionName, cities) in regions {
        var regionMembers: [Int] = []
        var cityPlaces: [VisitedPlace] = []
        for (cityName, members) in cities {
          regionMembers += members
          if level == .city {
            cityPlaces.append(groups.place(.city, name: cityName, code: code, region: regionName, members: members))
          }
        }
        all += regionMembers
        if level != .country {
          var region = groups.place(.region, name: regionName, code: code, region: regionName, members: regionMembers)
          region.children = cityPlaces
          regionPlaces.append(region)
        }
      }
      var country = groups.place(.country, name: countryName(code), code: code, region: "", members: all)
      country.children = regionPlaces
      countries.append(country)
    }
    self.countries = Self.sorted(countries, by: order)
  }

  /// Every place of the tree, depth first (a country, its regions each followed by its
  /// cities), as lists and tables show it.
  public var all: [VisitedPlace] {
    var list: [VisitedPlace] = []
    func visit(_ places: [VisitedPlace]) {
      for p in places {
        list.append(p)
        visit(p.children)
      }
    }
    visit(countries)
    return list
  }

  /// `places` and every level below in `order`; ties by name, then key.
  static func sorted(_ places: [VisitedPlace], by order: PlaceOrder) -> [VisitedPlace] {
    places.map { place in
      var place = place
      place.children = sorted(place.children, by: order)
      return place
    }.sorted { a, b in
      switch order {
      case .count where a.photos != b.photos: return a.photos > b.photos
      case .date where a.first != b.first: return a.first < b.first
      default: return (a.name, a.key) < (b.name, b.key)
      }
    }
  }
}

/// The photos places are made of, with their unit vectors found once.
private struct Groups {
  let photos: [DatedPhoto]
  let vectors: [(x: Double, y: Double, z: Double)]

  /// The place of `members`: its count, days, box, and the photo nearest its centre.
  func place(_ level: PlaceLevel, name: String, code: String, region: String, members: [Int]) -> VisitedPlace {
    var first = Int64.max
    var last = Int64.min
    var x = 0.0
    var y = 0.0
    var z = 0.0
    for i in members {
      first = min(first, photos[i].localTime)
      last = max(last, photos[i].localTime)
      x += vectors[i].x
      y += vectors[i].y
      z += vectors[i].z
    }
    let length = (x * x + y * y + z * z).squareRoot()
    let centre = length > 1e-12 ? (x / length, y / length, z / length) : vectors[members[0]]
    // The photo nearest the centre, ties by the lower id.
    var best = (distance: Double.infinity, id: Int64.max)
    for i in members {
      let v = vectors[i]
      let d =
        (v.x - centre.0) * (v.x - centre.0) + (v.y - centre.1) * (v.y - centre.1) + (v.z - centre.2) * (v.z - centre.2)
      if d < best.distance || (d == best.distance && photos[i].id < best.id) { best = (d, photos[i].id) }
    }
    return VisitedPlace(
      level: level, name: name, countryCode: code, region: region, photos: members.count,
      first: LocalDay(seconds: first), last: LocalDay(seconds: last), representative: best.id,
      bounds: BoundingBox(enclosing: members.lazy.compactMap { photos[$0].coordinate })
        ?? BoundingBox(west: 0, south: 0, east: 0, north: 0),
      children: [])
  }
}
