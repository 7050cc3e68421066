import GeoPhotoCore
import Testing

/// The six filters, read by one set of rules for the command line and the server.
@Suite struct FilterFieldTests {
  func filter(_ values: [FilterField: String]) throws(FilterProblem) -> PhotoFilter {
    try PhotoFilter { values[$0] }
  }

  @Test func goodValuesMakeTheFilter() throws {
    let f = try filter([
      .source: "Local, flickr", .since: "2024-05", .until: "2024", .camera: "  fuji ", .text: "temple",
    ])
    #expect(f.sources == [.local, .flickr])
    #expect(f.camera == "fuji")
    #expect(f.time != nil && f.text != nil)
    #expect(try filter([:]).isEmpty)
    #expect(try filter([.on: "2024-05-03"]).time != nil)
  }

  @Test func eachBadValueNamesItsFilter() {
    let cases: [(FilterField, String, String)] = [
      (.source, "local,x", "'x' is not local, flickr or commons"), (.since, "2024-13", "2024-13"),
      (.until, "yesterday", "yesterday"), (.on, "2024-05", "not a day"), (.camera, "   ", "make or model"),
      (.camera, String(repeating: "a", count: 201), "200"), (.text, "!!", "no words"),
      (.text, String(repeating: "word ", count: 50), "200"),
    ]
    for (field, value, words) in cases {
      do {
        _ = try filter([field: value])
        Issue.record("\(field) \(value) was taken")
      } catch {
        guard case .badValue(let named, let given, _) = error else {
          Issue.record("\(error)")
          continue
        }
        #expect(named == field && given == value)
        let message = error.message { "'--\($0.rawValue)'" }
        #expect(message.hasPrefix("'--\(field.rawValue)'") && message.contains(words), "\(message)")
      }
    }
  }

  @Test func contradictionsAreProblems() {
    #expect(throws: FilterProblem.dayWithBounds) { try filter([.on: "2024-05-03", .since: "2024"]) }
    do {
      _ = try filter([.since: "2025", .until: "2024"])
      Issue.record("since after until was taken")
    } catch {
      #expect(error.message { "'\($0.rawValue)'" } == "'since' 2025 is after 'until' 2024: no photo can match")
    }
  }
}
