import Foundation
public import GeoPhotoCore

/// Where home was, and since when: the place trips are measured from.
public struct HomePeriod: Hashable, Sendable {
  /// The first local day this home holds (the earliest day for the first home).
  public var since: LocalDay
  /// The centre of the photos taken there.
  public var center: Coordinate
  /// The place most of those photos are named by (`Helsinki, Uusimaa, FI`), empty when none.
  public var label: String

  public init(since: LocalDay, center: Coordinate, label: String) {
    self.since = since
    self.center = center
    self.label = label
  }
}

/// Home found from the photos themselves: the place with the most photo-days (days with a
/// photo there), which may change over the years. A place becomes the new home once it has
/// held the most photo-days of the 90 days ahead for 90 days on end; a trip, however long
/// its photos, never holds that long. Places are cells of a grid a quarter of the trip
/// distance wide, so a home's photos spread over a city count as one place.
public struct HomeFinder: Sendable {
  /// How long a new place must lead to be a home, and the window it leads in.
  public var settleDays: Int64 = 90
  /// The grid's cell size in degrees of latitude.
  public var cellDegrees: Double
  /// How far from home a photo is away, in metres.
  public var away: Double

  /// A finder for trips of at least `away` metres from home.
  public init(away: Double) {
    self.away = away
    cellDegrees = max(0.01, min(5, away / 4 / 111_195))
  }

  /// The homes of `photos` (any order; those without positions are ignored), earliest first;
  /// none without located photos.
  public func homes(of photos: [DatedPhoto]) -> [HomePeriod] {
    // Each day's place: the cell holding most of that day's photos.
    var cellsByDay: [LocalDay: [Cell: Int]] = [:]
    var means: [Cell: SphericalMean] = [:]
    for photo in photos {
      guard let c = photo.coordinate else { continue }
      let key = cell(c)
      cellsByDay[LocalDay(seconds: photo.localTime), default: [:]][key, default: 0] += 1
      means[key, default: SphericalMean()].add(c)
    }
    guard !cellsByDay.isEmpty else { return [] }
    let days = cellsByDay.keys.sorted()
    let placeOfDay = days.map { day in Self.leader(cellsByDay[day] ?? [:]) ?? Cell(row: 0, column: 0) }
    // The leader of each window of `settleDays` days starting at a photo-day.
    var leaders: [Cell] = []
    leaders.reserveCapacity(days.count)
    var counts: [Cell: Int] = [:]
    var end = 0
    for start in days.indices {
      while end < days.count, days[end].number < days[start].number + settleDays {
        counts[placeOfDay[end], default: 0] += 1
        end += 1
      }
      leaders.append(Self.leader(counts) ?? placeOfDay[start])
      let leaving = placeOfDay[start]
      counts[leaving] = (counts[leaving] ?? 1) > 1 ? (counts[leaving] ?? 1) - 1 : nil
    }
    // Runs of one leader that last `settleDays`: the homes, each from the day after the last
    // day spent near the home before it (within `away` of its centre), in the run's first
    // window.
    let limit = GreatCircle.squaredChord(forDistance: away)
    func near(_ a: Cell, _ b: Cell) -> Bool {
      guard let p = means[a]?.center, let q = means[b]?.center else { return a == b }
      let u = GreatCircle.unitVector(p)
      let v = GreatCircle.unitVector(q)
      return (u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y) + (u.z - v.z) * (u.z - v.z) <= limit
    }
    var homes: [(since: LocalDay, cell: Cell)] = []
    var runStart = 0
    for i in days.indices where i == days.count - 1 || leaders[i + 1] != leaders[i] {
      defer { runStart = i + 1 }
      let cell = leaders[i]
      guard days[i].number - days[runStart].number >= settleDays, homes.last?.cell != cell else { continue }
      guard let previous = homes.last else {
        homes.append((days[0], cell))
        continue
      }
      let end = days[runStart].number + settleDays
      var since = runStart
      for j in runStart..<days.count where days[j].number < end && near(placeOfDay[j], previous.cell) { since = j + 1 }
      homes.append((since < days.count ? days[since] : days[runStart], cell))
    }
    if homes.isEmpty {
      // Too short a timeline for a home to settle: the place with the most photo-days.
      var total: [Cell: Int] = [:]
      for place in placeOfDay { total[place, default: 0] += 1 }
      homes = [(days[0], Self.leader(total) ?? placeOfDay[0])]
    }
    // Each home's name: the place most of the photos in its cell are named by (counted by
    // shared place, named once each).
    var counted: [Cell: [SharedPlace: Int]] = [:]
    let homeCells = Set(homes.map(\.cell))
    for photo in photos {
      guard let c = photo.coordinate, let place = photo.sharedPlace else { continue }
      let key = cell(c)
      guard homeCells.contains(key) else { continue }
      counted[key, default: [:]][place, default: 0] += 1
    }
    var labels: [Cell: [String: Int]] = [:]
    for (cell, places) in counted {
      for (place, n) in places { labels[cell, default: [:]][place.name.label, default: 0] += n }
    }
    return homes.map { home in
      let label = labels[home.cell]?.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key
      return HomePeriod(
        since: home.since, center: means[home.cell]?.center ?? home.cell.center(cellDegrees), label: label ?? "")
    }
  }

  /// The cell counted most, ties by the lowest cell.
  static func leader(_ counts: [Cell: Int]) -> Cell? {
    counts.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key
  }

  /// A grid cell: rows of `cellDegrees` of latitude, each cut into columns about as wide.
  struct Cell: Hashable, Comparable {
    var row: Int32
    var column: Int32

    static func < (a: Cell, b: Cell) -> Bool { (a.row, a.column) < (b.row, b.column) }

    func center(_ size: Double) -> Coordinate {
      let latitude = max(-90, min(90, -90 + (Double(row) + 0.5) * size))
      let width = HomeFinder.columnWidth(size, latitude: latitude)
      return Coordinate(latitude: latitude, longitude: max(-180, min(180, -180 + (Double(column) + 0.5) * width)))
    }
  }

  static func columnWidth(_ size: Double, latitude: Double) -> Double {
    min(360, size / max(0.05, cos(min(89.9, abs(latitude)) * .pi / 180)))
  }

  func cell(_ c: Coordinate) -> Cell {
    let row = Int32(max(0, min(Double(Int32.max), ((c.latitude + 90) / cellDegrees).rounded(.down))))
    let center = -90 + (Double(row) + 0.5) * cellDegrees
    let width = Self.columnWidth(cellDegrees, latitude: center)
    let column = Int32(max(0, min(Double(Int32.max), ((c.longitude + 180) / width).rounded(.down))))
    return Cell(row: row, column: column)
  }
}
