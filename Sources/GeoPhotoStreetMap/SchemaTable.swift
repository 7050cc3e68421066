import Foundation
import GeoPhotoVectorTiles

/// How a schema's layers become street roles and labels: one table per schema, stated once.
/// OpenMapTiles (tilemaker, planetiler, MapTiler) and Protomaps' basemap (version 4); anything
/// else is drawn by geometry alone (`generic`).
struct SchemaTable: Sendable {
  let schema: TileSchema

  /// Whether the archive covers the sea with land polygons (Protomaps' `earth`): then water is
  /// painted first where the archive is drawn. OpenMapTiles draws water on land.
  var paintsWaterFirst: Bool { schema == .protomaps }

  /// A feature's property, by key, in its layer.
  struct Properties {
    let layer: VectorTile.Layer
    let feature: VectorTile.Feature

    func text(_ key: String) -> String? { layer.value(key, of: feature)?.string }
    func number(_ key: String) -> Double? { layer.value(key, of: feature)?.number }
    func flag(_ key: String) -> Bool { (layer.value(key, of: feature)?.number ?? 0) != 0 }

    /// The name to draw: the local one, else its Latin form (tilemaker writes only that), else
    /// the international or English one. Protomaps' `pgf:` values are glyph indices, never text.
    var name: String? {
      for key in ["name", "name:latin", "name_int", "name:en", "name_en"] {
        if let name = text(key)?.trimmingCharacters(in: .whitespaces), !name.isEmpty { return name }
      }
      return nil
    }
  }

  /// What the feature draws as, if anything.
  func role(layer name: String, _ p: Properties) -> StreetRole? {
    let type = p.feature.type
    switch schema {
    case .openMapTiles: return openMapTilesRole(name, p, type)
    case .protomaps: return protomapsRole(name, p, type)
    case .generic:
      switch type {
      case .polygon: return .residential
      case .line: return .road(.minor, structure: .ground)
      default: return nil
      }
    }
  }

  /// What the feature's label is, if it has one.
  func label(layer name: String, _ p: Properties) -> (role: LabelRole, rank: Double)? {
    switch schema {
    case .openMapTiles:
      switch name {
      case "place":
        let rank = p.number("rank") ?? 20
        switch p.text("class") {
        case "country": return (.country, rank)
        case "state", "province": return (.state, rank)
        case "city": return (.city, rank)
        case "town": return (.town, rank)
        case "village", "hamlet", "isolated_dwelling", "island": return (.village, rank)
        case "suburb", "quarter": return (.suburb, rank)
        case "neighbourhood": return (.neighbourhood, rank)
        default: return nil
        }
      case "transportation_name":
        guard p.feature.type == .line else { return nil }
        let major = ["motorway", "trunk", "primary", "secondary", "tertiary"].contains(p.text("class") ?? "")
        return (major ? .majorRoad : .minorRoad, 0)
      case "water_name": return (.water, p.number("rank") ?? 0)
      case "waterway": return p.feature.type == .line ? (.waterway, 0) : nil
      default: return nil
      }
    case .protomaps:
      switch name {
      case "places":
        // population_rank grows with the population: the larger place wins.
        let rank = 20 - (p.number("population_rank") ?? 0)
        switch p.text("kind") {
        case "country": return (.country, rank)
        case "region": return (.state, rank)
        case "locality":
          switch p.text("kind_detail") {
          case "city": return (.city, rank)
          case "town": return (.town, rank)
          default: return (.village, rank)
          }
        case "macrohood": return (.suburb, rank)
        case "neighbourhood": return (.neighbourhood, rank)
        default: return nil
        }
      case "roads":
        guard p.feature.type == .line else { return nil }
        let major = ["highway", "major_road"].contains(p.text("kind") ?? "")
        return (major ? .majorRoad : .minorRoad, 0)
      case "water":
        switch p.feature.type {
        case .point: return (.water, 0)
        case .line: return (.waterway, 0)
        default: return nil
        }
      default: return nil
      }
    case .generic:
      return p.feature.type == .point ? (.village, 10) : nil
    }
  }

  private func structure(bridge: Bool, tunnel: Bool) -> StreetRole.RoadStructure {
    bridge ? .bridge : tunnel ? .tunnel : .ground
  }

  private func openMapTilesRole(_ layer: String, _ p: Properties, _ type: VectorTile.GeometryType) -> StreetRole? {
    let kind = p.text("class") ?? ""
    switch (layer, type) {
    case ("water", .polygon): return .water
    case ("waterway", .line):
      switch kind {
      case "river": return .waterway(.river)
      case "canal": return .waterway(.canal)
      case "stream": return .waterway(.stream)
      default: return .waterway(.ditch)
      }
    case ("landcover", .polygon):
      switch p.text("subclass") ?? "" {
      case "park", "garden", "recreation_ground", "village_green": return .park
      case "scrub", "heath": return .scrub
      default: break
      }
      switch kind {
      case "farmland": return .farmland
      case "wood", "forest": return .wood
      case "grass": return .grass
      case "wetland": return .wetland
      case "sand": return .sand
      case "ice": return .ice
      case "rock": return .rock
      default: return nil
      }
    case ("landuse", .polygon):
      switch kind {
      case "residential", "suburb", "quarter", "neighbourhood": return .residential
      case "commercial", "retail": return .commercial
      case "industrial", "railway", "garages", "quarry", "dam": return .industrial
      case "cemetery": return .cemetery
      case "school", "university", "college", "kindergarten", "library": return .education
      case "hospital": return .hospital
      case "military": return .military
      case "stadium", "pitch", "playground", "track", "zoo", "theme_park": return .pitch
      case "parking": return .parking
      default: return nil
      }
    case ("park", .polygon): return .park
    case ("aeroway", .polygon): return kind == "aerodrome" ? .aerodrome : .runway
    case ("building", .polygon): return .building
    case ("transportation", .line):
      let structure = structure(bridge: p.text("brunnel") == "bridge", tunnel: p.text("brunnel") == "tunnel")
      let base = kind.hasSuffix("_construction") ? String(kind.dropLast(13)) : kind
      switch base {
      case "motorway": return .road(.motorway, structure: structure)
      case "trunk": return .road(.trunk, structure: structure)
      case "primary": return .road(.primary, structure: structure)
      case "secondary": return .road(.secondary, structure: structure)
      case "tertiary": return .road(.tertiary, structure: structure)
      case "minor", "busway", "raceway": return .road(.minor, structure: structure)
      case "service": return .road(.service, structure: structure)
      case "track": return .road(.track, structure: structure)
      case "path", "pedestrian", "footway", "cycleway", "steps", "bridleway": return .road(.path, structure: structure)
      case "rail", "narrow_gauge", "funicular", "preserved": return .rail(transit: false, structure: structure)
      case "transit", "tram", "subway", "light_rail", "monorail": return .rail(transit: true, structure: structure)
      case "ferry": return .ferry
      default: return nil
      }
    case ("boundary", .line):
      let level = Int(max(0, min(20, p.number("admin_level") ?? 10)))
      guard level <= 4 else { return nil }
      return .boundary(level: level, maritime: p.flag("maritime"))
    default: return nil
    }
  }

  private func protomapsRole(_ layer: String, _ p: Properties, _ type: VectorTile.GeometryType) -> StreetRole? {
    let kind = p.text("kind") ?? ""
    let detail = p.text("kind_detail") ?? ""
    switch (layer, type) {
    case ("earth", .polygon): return .land
    case ("water", .polygon): return .water
    case ("water", .line):
      switch detail {
      case "river": return .waterway(.river)
      case "canal": return .waterway(.canal)
      case "stream": return .waterway(.stream)
      default: return .waterway(.ditch)
      }
    case ("landcover", .polygon):
      switch kind {
      case "barren": return .sand
      case "farmland": return .farmland
      case "forest": return .wood
      case "glacier": return .ice
      case "grassland": return .grass
      case "scrub": return .scrub
      case "urban_area": return .residential
      default: return nil
      }
    case ("landuse", .polygon):
      switch kind {
      case "park", "national_park", "nature_reserve", "protected_area", "garden", "golf_course", "dog_park":
        return .park
      case "forest", "wood": return .wood
      case "grass", "meadow", "grassland": return .grass
      case "scrub": return .scrub
      case "cemetery", "grave_yard": return .cemetery
      case "hospital": return .hospital
      case "school", "university", "college", "kindergarten": return .education
      case "industrial", "railway", "quarry": return .industrial
      case "residential": return .residential
      case "commercial", "retail": return .commercial
      case "military": return .military
      case "pitch", "stadium", "playground", "sports_centre", "zoo", "theme_park": return .pitch
      case "runway", "taxiway", "apron": return .runway
      case "aerodrome": return .aerodrome
      case "farmland", "farm", "orchard", "vineyard": return .farmland
      case "sand", "beach": return .sand
      case "wetland", "marsh", "swamp": return .wetland
      case "glacier": return .ice
      case "pedestrian", "parking", "platform": return .parking
      default: return nil
      }
    case ("buildings", .polygon): return kind == "address" ? nil : .building
    case ("roads", .line):
      let structure = structure(bridge: p.flag("is_bridge"), tunnel: p.flag("is_tunnel"))
      switch kind {
      case "highway": return .road(detail == "trunk" ? .trunk : .motorway, structure: structure)
      case "major_road":
        switch detail {
        case "trunk", "trunk_link": return .road(.trunk, structure: structure)
        case "primary", "primary_link": return .road(.primary, structure: structure)
        case "secondary", "secondary_link": return .road(.secondary, structure: structure)
        default: return .road(.tertiary, structure: structure)
        }
      case "minor_road":
        return .road(detail == "service" ? .service : detail == "track" ? .track : .minor, structure: structure)
      case "path": return .road(.path, structure: structure)
      case "rail":
        let transit = ["tram", "subway", "light_rail", "monorail"].contains(detail)
        return .rail(transit: transit, structure: structure)
      case "ferry": return .ferry
      default: return nil
      }
    case ("boundaries", .line):
      let level = max(0, min(20, Int(detail) ?? (kind == "country" ? 2 : kind == "region" ? 4 : 8)))
      guard level <= 4 else { return nil }
      return .boundary(level: level, maritime: p.flag("maritime"))
    default: return nil
    }
  }
}
