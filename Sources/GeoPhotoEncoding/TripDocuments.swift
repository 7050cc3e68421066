public import GeoPhotoCore
public import GeoPhotoTravel

/// A trip's own members, as every answer about trips writes them.
public struct TripMembers: JSONWritable, DescribedJSON {
  public var trip: Trip

  public init(_ trip: Trip) { self.trip = trip }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    writeMembers(to: &w)
    w.endObject()
  }

  /// The members without the braces, for a feature's properties that add their own.
  public func writeMembers(to w: inout JSONWriter) {
    w.key("id")
    w.string(trip.id)
    w.key("name")
    w.string(trip.name)
    w.key("start")
    w.string(trip.start.text)
    w.key("end")
    w.string(trip.end.text)
    w.key("startTime")
    w.string(CaptureDate(secondsSinceEpoch: Int(trip.startInstant), utcOffsetMinutes: 0).iso8601)
    w.key("endTime")
    w.string(CaptureDate(secondsSinceEpoch: Int(trip.endInstant), utcOffsetMinutes: 0).iso8601)
    w.key("days")
    w.integer(trip.end.number - trip.start.number + 1)
    w.key("photos")
    w.integer(Int64(trip.photos))
    w.key("located")
    w.integer(Int64(trip.located))
    w.key("places")
    w.integer(Int64(trip.places))
    w.key("countries")
    w.integer(Int64(trip.countries))
    w.key("countryCodes")
    w.beginArray()
    for code in trip.countryCodes { w.string(code) }
    w.endArray()
    w.key("distance")
    w.metres(trip.distance)
    w.key("bbox")
    w.bbox(trip.bounds)
    if let home = trip.home, !home.label.isEmpty {
      w.key("home")
      w.string(home.label)
    }
  }

  /// The trip as a GeoJSON feature: its route line, cut at the antimeridian.
  public func writeFeature(to w: inout JSONWriter) {
    GeoJSON.writeFeature(
      id: nil, bbox: trip.bounds, geometry: GeoJSON.MultiLineString(cuttingAtAntimeridian: trip.route), to: &w
    ) { w in
      w.beginObject()
      writeMembers(to: &w)
      w.key("kind")
      w.string("route")
      w.endObject()
    }
  }

  public static let schemaName = "Trip"
  public static let schema = JSONSchema.object(properties: properties, required: required)

  /// The trip's members, as its object and its route feature's properties have them.
  static let properties: [(String, JSONSchema)] = [
    ("id", .described(.string, "Stable while the trip's photos stay")),
    ("name", .described(.string, "Tokyo & Kyoto, JP; Japan; Japan & South Korea")),
    ("start", .described(.string, "The local day of the first photo")),
    ("end", .described(.string, "The local day of the last photo")),
    ("startTime", .described(.string, "The instant of the first photo with a position, in UTC")),
    ("endTime", .described(.string, "The instant of the last photo with a position, in UTC")), ("days", .integer),
    ("photos", .described(.integer, "Every photo of the trip, with or without a position")),
    ("located", .described(.integer, "Photos with a position")),
    ("places", .described(.integer, "Distinct places (cities)")), ("countries", .integer),
    ("countryCodes", .described(.array(.string), "By photo count, most first")),
    ("distance", .described(.number, "Metres along the photos' positions in time order")),
    ("bbox", .described(.array(.number), "west, south, east, north (west > east across the antimeridian)")),
    ("home", .described(.string, "The home it was measured from")),
  ]

  static let required: [String] = [
    "id", "name", "start", "end", "startTime", "endTime", "days", "photos", "located", "places", "countries",
    "countryCodes", "distance",
    "bbox",
  ]
}

/// The trips of a timeline (`geophoto trips`, `/v1/trips`): JSON with the homes and the trips,
/// GeoJSON with a route feature per trip, CSV and a table.
public struct TripListDocument: OutputDocument, JSONWritable, DescribedJSON {
  public var homes: [HomePeriod]
  public var trips: [Trip]

  public init(homes: [HomePeriod], trips: [Trip]) {
    self.homes = homes
    self.trips = trips
  }

  public func json(pretty: Bool) -> [UInt8] { encoded(pretty: pretty, capacity: 1_024 + 400 * trips.count) }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("homes")
    w.beginArray()
    for home in homes {
      w.beginObject()
      w.key("since")
      if home.since.number == .min { w.null() } else { w.string(home.since.text) }
      w.key("coordinate")
      w.coordinate(home.center)
      w.key("name")
      w.string(home.label)
      w.endObject()
    }
    w.endArray()
    w.key("trips")
    w.beginArray()
    for trip in trips { TripMembers(trip).write(to: &w) }
    w.endArray()
    w.endObject()
  }

  public func geoJSON(pretty: Bool) -> [UInt8] {
    var w = JSONWriter(pretty: pretty, capacity: 1_024 + 8_000 * trips.count)
    GeoJSON.writeFeatureCollection(to: &w) { w in
      for trip in trips { TripMembers(trip).writeFeature(to: &w) }
    }
    return w.bytes
  }

  public func csv() -> CSV {
    CSV(
      header: [
        "id", "name", "start", "end", "startTime", "endTime", "days", "photos", "located", "places", "countries",
        "country_codes",
        "distance_km",
        "west", "south", "east", "north",
      ],
      rows: trips.map { trip in
        [
          trip.id, trip.name, trip.start.text, trip.end.text, String(trip.end.number - trip.start.number + 1),
          String(trip.photos), String(trip.located), String(trip.places), String(trip.countries),
          trip.countryCodes.joined(separator: " "), CSV.number(trip.distance / 1_000, places: 1),
        ]
          + [trip.bounds.west, trip.bounds.south, trip.bounds.east, trip.bounds.north].map { CSV.number($0, places: 7) }
      })
  }

  /// `START  END  DAYS  PHOTOS  PLACES  DISTANCE  NAME  ID`, newest first, after a line per
  /// home; empty when there is no trip.
  public func table() -> String {
    guard !trips.isEmpty else { return "" }
    var text = ""
    for home in homes where !home.label.isEmpty {
      text += home.since.number == .min ? "home: \(home.label)\n" : "home: \(home.label) from \(home.since.text)\n"
    }
    let rows = trips.map { trip in
      [
        trip.start.text, trip.end.text, String(trip.end.number - trip.start.number + 1), String(trip.photos),
        String(trip.places), DistanceFormat.human(trip.distance), trip.name, trip.id,
      ]
    }
    return text
      + TextTable(
        header: ["START", "END", "DAYS", "PHOTOS", "PLACES", "DISTANCE", "NAME", "ID"], rows: rows,
        rightAligned: [2, 3, 4, 5]
      ).text
  }

  public static let schemaName = "TripList"
  public static let schema = JSONSchema.object(
    properties: [
      (
        "homes",
        .described(
          .array(
            .object(
              properties: [
                ("since", .nullable(.string)), ("coordinate", Coordinate.reference), ("name", .string),
              ], required: ["since", "coordinate", "name"])),
          "Home over time, earliest first (since is null for the first)")
      ),
      ("trips", .described(.array(TripMembers.reference), "Latest first")),
    ], required: ["homes", "trips"])
}

extension TripMembers {
  /// The route feature of a trip's GeoJSON: its line, cut at the antimeridian, with the trip's
  /// members as properties.
  static let routeFeatureSchema = JSONSchema.object(
    properties: [
      ("type", .word(["Feature"])), ("bbox", .array(.number)),
      (
        "geometry",
        .object(
          properties: [("type", .word(["MultiLineString"])), ("coordinates", .array(.array(.array(.number))))],
          required: ["type", "coordinates"])
      ),
      ("properties", .object(properties: properties + [("kind", .word(["route"]))], required: required + ["kind"])),
    ], required: ["type", "geometry", "properties"])
}

/// One trip with its photos (`/v1/trips/{id}`): a GeoJSON FeatureCollection of the route line
/// (`kind: route`, the trip's members) and the photos in time order, those without a position
/// with a null geometry.
public struct TripDocument: DescribedJSON {
  public static let schemaName = "TripFeatureCollection"
  public static let schema = GeoJSON.featureCollectionSchema(
    features: .oneOf([
      TripMembers.routeFeatureSchema,
      GeoJSON.pointFeatureSchema(properties: AnnotationMembers.members(coordinate: false)),
      .object(
        properties: [
          ("type", .word(["Feature"])), ("id", .integer),
          (
            "geometry",
            .annotated(.object(properties: []), [("nullable", .bool(true)), ("enum", .array([.null]))])
          ),
          (
            "properties",
            .object(
              properties: [("id", .integer), ("source", .string), ("title", .string), ("takenAt", .nullable(.string))],
              required: ["id", "source", "title", "takenAt"])
          ),
        ], required: ["type", "geometry", "properties"]),
    ]), members: [("trip", .string)])

  public var trip: Trip
  public var photos: [Photo]
  public var options: AnnotationDocument.Options

  public init(trip: Trip, photos: [Photo], options: AnnotationDocument.Options = .init()) {
    self.trip = trip
    self.photos = photos
    self.options = options
  }

  public func geoJSON(pretty: Bool = false) -> [UInt8] {
    var w = JSONWriter(pretty: pretty, capacity: 8_000 + 400 * photos.count)
    GeoJSON.writeFeatureCollection(foreignMembers: JSONMembers([("trip", .string(trip.id))]), to: &w) { w in
      TripMembers(trip).writeFeature(to: &w)
      for photo in photos {
        if let annotation = Annotation(photo: photo, distance: nil) {
          AnnotationMembers.writeFeature(annotation, options: options, to: &w)
        } else {
          GeoJSON.writeFeature(id: photo.id, geometry: GeoJSON.NoGeometry(), to: &w) { w in
            w.beginObject()
            w.key("id")
            w.integer(photo.id)
            w.key("source")
            w.string(photo.source.rawValue)
            w.key("title")
            w.string(photo.title)
            w.key("takenAt")
            w.date(photo.takenAt)
            w.endObject()
          }
        }
      }
    }
    return w.bytes
  }
}
