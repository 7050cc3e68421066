import Foundation
import GeoPhotoCore
import Testing

@testable import GeoPhotoEncoding

func text(_ build: (inout JSONWriter) -> Void, pretty: Bool = false) -> String {
  var w = JSONWriter(pretty: pretty)
  build(&w)
  return String(decoding: w.bytes, as: UTF8.self)
}

@Suite struct JSONWriterTests {
  @Test func stringsAreEscapedAsRFC8259Says() {
    #expect(text { $0.string("plain ascii") } == #""plain ascii""#)
    #expect(text { $0.string("quote \" backslash \\ slash /") } == #""quote \" backslash \\ slash /""#)
    #expect(text { $0.string("line\nfeed\rtab\t") } == #""line\nfeed\rtab\t""#)
    #expect(text { $0.string("\u{01}\u{1F}") } == #""\u0001\u001f""#)
    #expect(text { $0.string("東京 · café 📷") } == "\"東京 · café 📷\"")
    // Whatever goes in comes back out through a JSON parser.
    let nasty = "a\"b\\c\u{0}d\u{7F}e\u{2028}f"
    let parsed = try? JSONSerialization.jsonObject(
      with: Data(text { $0.string(nasty) }.utf8), options: .fragmentsAllowed)
    #expect(parsed as? String == nasty)
  }

  /// A writer that starts with almost no room grows as it writes and loses no byte: what a
  /// JSON parser reads back is what went in, and appending the bytes to an array adds them.
  @Test func aWriterGrowsAndKeepsEveryByte() throws {
    let alphabet = Array("abc \"\\\n\t東京é📷/\u{1}")
    var members: [String: String] = [:]
    for i in 0..<2_000 {
      members["k\(i)"] = String((0..<(i % 41)).map { alphabet[(i * 31 + $0 * 7) % alphabet.count] })
    }
    var w = JSONWriter(pretty: false, capacity: 0)
    w.beginObject()
    for (name, value) in members.sorted(by: { $0.key < $1.key }) {
      w.key(named: name)
      w.string(value)
    }
    w.endObject()
    let parsed = try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: String]
    #expect(parsed == members)
    var out = Array("prefix".utf8)
    w.append(to: &out)
    #expect(out == Array("prefix".utf8) + w.bytes && w.byteCount == w.bytes.count)
  }

  @Test func fixedDecimalsDropBinaryNoise() {
    #expect(text { $0.degrees(35.681239999999995) } == "35.68124")
    #expect(text { $0.degrees(139.7) } == "139.7")
    #expect(text { $0.degrees(180) } == "180")
    #expect(text { $0.degrees(0.00000004) } == "0")
    #expect(text { $0.degrees(0.00000005) } == "0.0000001")
    #expect(text { $0.metres(608.96) } == "609")
    #expect(text { $0.metres(1234.56) } == "1234.6")
    #expect(text { $0.rounded(.nan, places: 3) } == "null")
    #expect(text { $0.rounded(.infinity, places: 3) } == "null")
  }

  @Test func negativesKeepTheirSign() {
    #expect(text { $0.degrees(-33.8568) } == "-33.8568")
    #expect(text { $0.degrees(-0.5) } == "-0.5")
    #expect(text { $0.degrees(-0.00000004) } == "0")
    #expect(text { $0.degrees(-179.9999999) } == "-179.9999999")
    #expect(text { $0.integer(-42) } == "-42")
    #expect(text { $0.number(-1.25) } == "-1.25")
    #expect(text { $0.number(-3) } == "-3")
  }

  @Test func scaledIntegersAreWrittenAsTheirDecimals() {
    // Every value is checked against its decimal spelled out by string arithmetic.
    var rng = SystemRandomNumberGenerator()
    let edges: [Int64] = [0, 1, -1, 9, 10, -10, 100, 1_000_000_0, .max, .min, .min + 1]
    for places in 0...9 {
      for value in edges + (0..<300).map({ _ in Int64.random(in: -10_000_000_000...10_000_000_000, using: &rng) }) {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
        let whole = padded.dropLast(places)
        var fraction = padded.suffix(places)
        while fraction.last == "0" { fraction = fraction.dropLast() }
        let expected = (value < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
        #expect(text { $0.fixed(value, places: places) } == expected, "\(value) with \(places) places")
      }
    }
  }

  @Test func deepNestingKeepsItsCommas() throws {
    // Deeper than the writer's 64 levels kept in one word: each level has two members.
    let depth = 150
    let document = text { w in
      for _ in 0..<depth {
        w.beginArray()
        w.integer(1)
      }
      for _ in 0..<depth {
        w.integer(2)
        w.endArray()
      }
    }
    var parsed = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [Any])
    for level in 0..<depth {
      #expect(parsed.count == (level == depth - 1 ? 2 : 3), "level \(level)")
      #expect(parsed.first as? Int == 1)
      #expect(parsed.last as? Int == 2)
      guard level < depth - 1, let inner = parsed[1] as? [Any] else { break }
      parsed = inner
    }
  }

  @Test func containersAndPrettyPrinting() {
    let compact = text { w in
      w.beginObject()
      w.key("a")
      w.integer(1)
      w.key("b")
      w.beginArray()
      w.bool(true)
      w.null()
      w.endArray()
      w.key("empty")
      w.beginObject()
      w.endObject()
      w.key("none")
      w.beginArray()
      w.endArray()
      w.endObject()
    }
    #expect(compact == #"{"a":1,"b":[true,null],"empty":{},"none":[]}"#)
    let pretty = text(
      { w in
        w.beginObject()
        w.key("a")
        w.integer(1)
        w.key("b")
        w.beginArray()
        w.string("x")
        w.beginObject()
        w.key("c")
        w.null()
        w.endObject()
        w.endArray()
        w.key("empty")
        w.beginArray()
        w.endArray()
        w.endObject()
      }, pretty: true)
    #expect(
      pretty == """
        {
          "a": 1,
          "b": [
            "x",
            {
              "c": null
            }
          ],
          "empty": []
        }
        """)
  }

  @Test func jsonValuesWriteInOrder() {
    let value = JSONValue.object([("z", .integer(1)), ("a", .array([.string("s"), .fixed(-356_812_400, places: 7)]))])
    #expect(value.serialized() == #"{"z":1,"a":["s",-35.68124]}"#)
  }
}

@Suite struct GeoJSONTests {
  let tokyo = Coordinate(latitude: 35.681239999999995, longitude: 139.76712)

  @Test func positionsAreLongitudeFirst() {
    #expect(
      String(decoding: GeoJSON.Point(tokyo).encoded(), as: UTF8.self)
        == #"{"type":"Point","coordinates":[139.76712,35.68124]}"#)
    let line = GeoJSON.LineString([tokyo, Coordinate(latitude: -33.8568, longitude: -70.1)])
    #expect(
      String(decoding: line.encoded(), as: UTF8.self)
        == #"{"type":"LineString","coordinates":[[139.76712,35.68124],[-70.1,-33.8568]]}"#)
  }

  @Test func featuresAndCollections() throws {
    let feature = GeoJSON.Feature(
      id: 7, bbox: BoundingBox(west: 1, south: 2, east: 3, north: 4), geometry: GeoJSON.Point(tokyo),
      properties: JSONMembers([("name", .string("x"))]))
    #expect(
      String(decoding: feature.encoded(), as: UTF8.self)
        == #"{"type":"Feature","id":7,"bbox":[1,2,3,4],"geometry":{"type":"Point","coordinates":[139.76712,35.68124]},"properties":{"name":"x"}}"#
    )
    let collection = GeoJSON.FeatureCollection([feature], foreignMembers: JSONMembers([("total", .integer(9))]))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(collection.encoded())) as? [String: Any])
    #expect(object["type"] as? String == "FeatureCollection")
    #expect((object["features"] as? [Any])?.count == 1 && object["total"] as? Int == 9)
    #expect(
      String(decoding: GeoJSON.FeatureCollection([feature]).encoded(pretty: true), as: UTF8.self).contains("\n    {"))
  }

  @Test func annotationDocumentsInEveryFormat() throws {
    var a = try #require(
      Annotation(
        photo: Photo(
          id: 3, source: .local, sourceID: "/p/a.jpg", coordinate: tokyo, title: "Hello, \"world\"",
          place: PlaceName(name: "Tokyo", admin1: "Tokyo", admin2: "", countryCode: "JP", distance: 600.04)),
        distance: 658.35))
    a.distanceAlong = 12.34
    let document = AnnotationDocument([a], query: NearQuery(center: tokyo, limit: 1))
    let json = try #require(try JSONSerialization.jsonObject(with: Data(document.json())) as? [String: Any])
    let first = try #require((json["annotations"] as? [[String: Any]])?.first)
    #expect(first["distance"] as? Double == 658.4 && first["distanceAlong"] as? Double == 12.3)
    #expect((first["coordinate"] as? [String: Double])?["latitude"] == 35.68124)
    #expect((first["place"] as? [String: Any])?["distance"] as? Double == 600)
    let csv = document.csv().text
    #expect(csv.hasPrefix("id,source,latitude,longitude,title,subtitle,distance,taken_at,distance_along,path,"))
    #expect(csv.contains(#"3,local,35.68124,139.76712,"Hello, ""world""","Tokyo, Tokyo, JP",658.4,,12.3,/p/a.jpg,,"#))
    #expect(csv.hasSuffix("\r\n"))
    #expect(document.table().contains("35.68124,139.76712"))
    #expect(AnnotationDocument([], query: NearQuery(center: tokyo, limit: 1)).table() == "")
    #expect(OutputFormat.allCases.allSatisfy { !$0.render(document).isEmpty })
  }
}

@Suite struct TextOutputTests {
  @Test func csvFieldsAreQuotedOnlyWhenTheyMustBe() {
    #expect(CSV.field("plain") == "plain")
    #expect(CSV.field("a,b") == "\"a,b\"")
    #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(CSV.field("two\nlines") == "\"two\nlines\"")
    #expect(CSV(header: ["a", "b"], rows: [["1", "x,y"]]).text == "a,b\r\n1,\"x,y\"\r\n")
  }

  @Test func tablesAlign() {
    let table = TextTable(
      header: ["N", "NAME", "ID"], rows: [["1", "Tokyo", "7"], ["100", "Ō", "12"]], rightAligned: [0])
    #expect(table.text == "  N  NAME   ID\n  1  Tokyo  7\n100  Ō      12\n")
  }
}
