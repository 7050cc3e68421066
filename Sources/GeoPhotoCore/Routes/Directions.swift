import Foundation

/// One step of a route: a maneuver and the way to the next one.
public struct RouteStep: Equatable, Sendable {
  public var distance: Double
  public var duration: Double
  /// The street the step follows.
  public var name: String
  /// OSRM maneuver type (`depart`, `turn`, `arrive`, …) and modifier (`left`, `slight right`, …).
  public var type: String
  public var modifier: String?
  public var exit: Int?
  public var bearingAfter: Double?
  public var location: Coordinate

  public init(
    distance: Double, duration: Double, name: String, type: String, modifier: String? = nil, exit: Int? = nil,
    bearingAfter: Double? = nil, location: Coordinate
  ) {
    self.distance = distance
    self.duration = duration
    self.name = name
    self.type = type
    self.modifier = modifier
    self.exit = exit
    self.bearingAfter = bearingAfter
    self.location = location
  }

  /// The instruction sentence geophoto composes (OSRM sends no text).
  public var instruction: String { Instructions.sentence(for: self) }
}

/// The way between two consecutive waypoints.
public struct RouteLeg: Equatable, Sendable {
  public var distance: Double
  public var duration: Double
  public var steps: [RouteStep]

  public init(distance: Double, duration: Double, steps: [RouteStep]) {
    self.distance = distance
    self.duration = duration
    self.steps = steps
  }
}

/// A route from the routing engine: legs between consecutive waypoints and the whole line.
public struct Directions: Equatable, Sendable {
  public var distance: Double
  public var duration: Double
  public var legs: [RouteLeg]
  public var geometry: [Coordinate]
  /// The points as the engine snapped them to the street network, with the street names.
  public var waypoints: [(name: String, location: Coordinate)]

  public init(
    distance: Double, duration: Double, legs: [RouteLeg], geometry: [Coordinate],
    waypoints: [(name: String, location: Coordinate)]
  ) {
    self.distance = distance
    self.duration = duration
    self.legs = legs
    self.geometry = geometry
    self.waypoints = waypoints
  }

  public static func == (a: Directions, b: Directions) -> Bool {
    a.distance == b.distance && a.duration == b.duration && a.legs == b.legs && a.geometry == b.geometry
      && a.waypoints.map(\.name) == b.waypoints.map(\.name)
      && a.waypoints.map(\.location) == b.waypoints.map(\.location)
  }
}

/// English instruction sentences from OSRM maneuvers (after osrm-text-instructions' rules).
public enum Instructions {
  public static func sentence(for step: RouteStep) -> String {
    let onto = step.name.isEmpty ? "" : " onto \(step.name)"
    let on = step.name.isEmpty ? "" : " on \(step.name)"
    let modifier = step.modifier ?? ""
    switch step.type {
    case "depart":
      let heading = step.bearingAfter.map { " " + cardinal($0) } ?? ""
      return "Head\(heading)\(on)"
    case "arrive":
      return "You have arrived at your destination"
    case "continue":
      if modifier == "uturn" { return "Make a U-turn\(on)" }
      return modifier.isEmpty || modifier == "straight" ? "Continue\(on)" : "Continue \(modifier)\(on)"
    case "roundabout", "rotary":
      let exit = step.exit.map { " and take exit \($0)" } ?? ""
      return "Enter the roundabout\(exit)\(onto)"
    case "exit roundabout", "exit rotary":
      return "Exit the roundabout\(onto)"
    case "merge":
      return "Merge\(modifier.isEmpty ? "" : " \(modifier)")\(onto)"
    case "on ramp":
      return "Take the ramp\(modifier.isEmpty ? "" : " on the \(modifier)")\(onto)"
    case "off ramp":
      return "Take the exit\(modifier.isEmpty ? "" : " on the \(modifier)")\(onto)"
    default:  // turn, new name, end of road, fork, notification, and types not known yet
      switch modifier {
      case "uturn": return "Make a U-turn\(onto)"
      case "straight", "": return "Continue straight\(onto)"
      default:
        if step.type == "fork" { return "Keep \(modifier.replacingOccurrences(of: "slight ", with: ""))\(onto)" }
        return "Turn \(modifier)\(onto)"
      }
    }
  }

  /// One of eight compass directions for a bearing in degrees (sectors of 45° centred on N).
  public static func cardinal(_ bearing: Double) -> String {
    let names = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
    let normalized = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
    return names[Int((normalized + 22.5) / 45) % 8]
  }

  /// `1.2 km, 4 min`: kilometres to one decimal, time in whole minutes (hours past 60).
  public static func summary(distance: Double, duration: Double) -> String {
    let km = String(format: "%.1f km", distance / 1000)
    let minutes = Int((duration / 60).rounded())
    if duration < 30 { return "\(km), under 1 min" }
    if minutes < 60 { return "\(km), \(minutes) min" }
    return "\(km), \(minutes / 60) h \(minutes % 60) min"
  }
}
