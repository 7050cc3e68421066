import Foundation

/// A point of a route or track: where, and when when the source says.
public struct RoutePoint: Hashable, Sendable {
  public var coordinate: Coordinate
  /// Seconds since the Unix epoch (UTC), for track points with a time.
  public var time: Double?
  public var elevation: Double?

  public init(_ coordinate: Coordinate, time: Double? = nil, elevation: Double? = nil) {
    self.coordinate = coordinate
    self.time = time
    self.elevation = elevation
  }
}

/// What a map needs to show an area: its centre and how many degrees it spans, the shape of
/// MapKit's `MKCoordinateRegion`.
public struct CoordinateRegion: Hashable, Sendable {
  public var center: Coordinate
  public var latitudeDelta: Double
  public var longitudeDelta: Double

  public init(center: Coordinate, latitudeDelta: Double, longitudeDelta: Double) {
    self.center = center
    self.latitudeDelta = latitudeDelta
    self.longitudeDelta = longitudeDelta
  }
}

/// A photo's place relative to a route.
public struct RouteProjection: Hashable, Sendable {
  /// Metres from the route (great-circle distance to the nearest segment).
  public var distanceFromRoute: Double
  /// Metres along the route from its start to the point nearest the photo.
  public var distanceAlong: Double
}

/// Lengths, bounds, fitted regions and distances to polylines on the sphere.
public enum RouteGeometry {
  /// The length of the polyline in metres (sum of great-circle segments).
  public static func length(_ points: [Coordinate]) -> Double {
    zip(points, points.dropFirst()).reduce(0) { $0 + GreatCircle.distance($1.0, $1.1) }
  }

  /// The smallest box holding every point. Longitudes wrap: a route across the antimeridian
  /// gets `west > east` (RFC 7946 §5.2) instead of a box around the whole world.
  public static func bounds(_ points: [Coordinate]) -> BoundingBox? {
    guard let first = points.first else { return nil }
    var south = first.latitude
    var north = first.latitude
    for p in points {
      south = min(south, p.latitude)
      north = max(north, p.latitude)
    }
    // The box is the circle of longitudes minus its largest empty gap.
    let longitudes = Set(points.map { $0.longitude == 180 ? -180 : $0.longitude }).sorted()
    var gap = longitudes[0] + 360 - (longitudes.last ?? longitudes[0])  // the gap across ±180
    var west = longitudes[0]
    var east = longitudes.last ?? longitudes[0]
    for (a, b) in zip(longitudes, longitudes.dropFirst()) where b - a > gap {
      gap = b - a
      west = b
      east = a
    }
    return BoundingBox(west: west, south: south, east: east, north: north)
  }

  /// The region that shows a box: centred on the box's centre (not on the mean of the points,
  /// which can push a route off screen), spanning `padding` times the box.
  /// A region's span as a multiple of its bounds, unless asked otherwise (MapKit tutorials'
  /// 1.5: the route with a margin).
  public static let defaultPadding = 1.5

  public static func region(for box: BoundingBox, padding: Double = defaultPadding) -> CoordinateRegion {
    let width = box.crossesAntimeridian ? box.east + 360 - box.west : box.east - box.west
    var centerLongitude = box.west + width / 2
    if centerLongitude >= 180 { centerLongitude -= 360 }
    let latitudeDelta = min(180, (box.north - box.south) * padding)
    return CoordinateRegion(
      center: Coordinate(latitude: (box.north + box.south) / 2, longitude: centerLongitude),
      latitudeDelta: latitudeDelta, longitudeDelta: min(360, width * padding))
  }

  /// The distance from `p` to the great-circle segment `a`–`b`, and how far along the
  /// segment (from `a`) the nearest point lies.
  public static func project(_ p: Coordinate, ontoSegment a: Coordinate, _ b: Coordinate) -> (
    distance: Double, along: Double
  ) {
    let va = GreatCircle.unitVector(a)
    let vb = GreatCircle.unitVector(b)
    let vp = GreatCircle.unitVector(p)
    let segment = GreatCircle.distance(a, b)
    // The pole of the segment's great circle.
    var n = (va.y * vb.z - va.z * vb.y, va.z * vb.x - va.x * vb.z, va.x * vb.y - va.y * vb.x)
    let norm = (n.0 * n.0 + n.1 * n.1 + n.2 * n.2).squareRoot()
    guard norm > 1e-15, segment > 0 else { return (GreatCircle.distance(p, a), 0) }
    n = (n.0 / norm, n.1 / norm, n.2 / norm)
    let sinCross = vp.x * n.0 + vp.y * n.1 + vp.z * n.2
    // The foot of the perpendicular: p with its component along n removed.
    let fx = vp.x - sinCross * n.0
    let fy = vp.y - sinCross * n.1
    let fz = vp.z - sinCross * n.2
    let fNorm = (fx * fx + fy * fy + fz * fz).squareRoot()
    if fNorm > 1e-15 {
      let foot = (fx / fNorm, fy / fNorm, fz / fNorm)
      let fromA = angle(va, foot) * GreatCircle.earthRadius
      let toB = angle(foot, vb) * GreatCircle.earthRadius
      // The foot lies on the segment when the two parts add up to the whole.
      if abs(fromA + toB - segment) < 1e-6 * max(1, segment) {
        return (abs(asin(max(-1, min(1, sinCross)))) * GreatCircle.earthRadius, fromA)
      }
    }
    let da = GreatCircle.distance(p, a)
    let db = GreatCircle.distance(p, b)
    return da <= db ? (da, 0) : (db, segment)
  }

  private static func angle(
    _ u: (x: Double, y: Double, z: Double), _ v: (Double, Double, Double)
  ) -> Double {
    let cx = u.y * v.2 - u.z * v.1
    let cy = u.z * v.0 - u.x * v.2
    let cz = u.x * v.1 - u.y * v.0
    return atan2((cx * cx + cy * cy + cz * cz).squareRoot(), u.x * v.0 + u.y * v.1 + u.z * v.2)
  }

  /// Where `p` lies relative to the polyline: its distance to the nearest segment and the
  /// distance along the route to that nearest point.
  public static func project(_ p: Coordinate, onto route: [Coordinate]) -> RouteProjection? {
    guard let first = route.first else { return nil }
    guard route.count > 1 else {
      return RouteProjection(distanceFromRoute: GreatCircle.distance(p, first), distanceAlong: 0)
    }
    var best = RouteProjection(distanceFromRoute: .infinity, distanceAlong: 0)
    var travelled = 0.0
    for (a, b) in zip(route, route.dropFirst()) {
      let (distance, along) = project(p, ontoSegment: a, b)
      if distance < best.distanceFromRoute {
        best = RouteProjection(distanceFromRoute: distance, distanceAlong: travelled + along)
      }
      travelled += GreatCircle.distance(a, b)
    }
    return best
  }
}

/// What finds the indexed points within a radius: a kd-tree, or a store's located index with
/// the changes since it was built.
public protocol RadiusSearch: Sendable {
  /// Every point within `radius` metres of `center`, nearest first, ties by ascending id.
  func within(radius: Double, of center: Coordinate) -> [Neighbor]
}

extension SpatialIndex: RadiusSearch {}

/// Photos near a route, found through the spatial index.
public enum RouteSearch {
  /// How far from a route photos count as along it, unless asked otherwise (metres).
  public static let defaultWithin = 200.0

  /// Every indexed point within `within` metres of the polyline, ordered by where along the
  /// route it lies (then by id).
  public static func points(
    along route: [Coordinate], within: Double, index: some RadiusSearch, coordinateOf: (Int64) -> Coordinate?
  ) -> [(id: Int64, projection: RouteProjection)] {
    var candidates = Set<Int64>()
    if route.count == 1, let only = route.first {
      for n in index.within(radius: within, of: only) { candidates.insert(n.id) }
    }
    for (a, b) in zip(route, route.dropFirst()) {
      // Every point near the segment lies within half its length (plus the margin) of its
      // middle.
      let va = GreatCircle.unitVector(a)
      let vb = GreatCircle.unitVector(b)
      let mx = va.x + vb.x
      let my = va.y + vb.y
      let mz = va.z + vb.z
      let norm = (mx * mx + my * my + mz * mz).squareRoot()
      let middle =
        norm < 1e-12
        ? a
        : Coordinate(
          latitude: asin(max(-1, min(1, mz / norm))) * 180 / .pi, longitude: atan2(my / norm, mx / norm) * 180 / .pi)
      let reach = GreatCircle.distance(a, b) / 2 + within + 1
      for n in index.within(radius: reach, of: middle) { candidates.insert(n.id) }
    }
    var result: [(id: Int64, projection: RouteProjection)] = []
    for id in candidates {
      guard let c = coordinateOf(id), let p = RouteGeometry.project(c, onto: route), p.distanceFromRoute <= within
      else { continue }
      result.append((id, p))
    }
    return result.sorted {
      $0.projection.distanceAlong < $1.projection.distanceAlong
        || ($0.projection.distanceAlong == $1.projection.distanceAlong && $0.id < $1.id)
    }
  }
}
