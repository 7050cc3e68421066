import GeoPhotoCore
import Testing

@Suite struct EstimateSourceTests {
  @Test func theStoredFormReadsBackAndSaysHow() {
    let sources = [
      EstimateSource(kind: .track, name: "day 1\tmorning.gpx", method: .interpolated(seconds: 12.5)),
      EstimateSource(kind: .track, name: "Timeline.json", method: .visit),
      EstimateSource(kind: .photos, name: "IMG_0399.HEIC", method: .endFix(seconds: 40)),
      EstimateSource(kind: .track, name: "a.igc", method: .exact), .byHand,
    ]
    let read = sources.map { EstimateSource(text: $0.text) }
    // A tab in a name would split the stored form: it is kept as a space.
    #expect(read[0] == EstimateSource(kind: .track, name: "day 1 morning.gpx", method: .interpolated(seconds: 12.5)))
    #expect(Array(read.dropFirst()) == Array(sources.dropFirst()))
    #expect(sources.map(\.how) == ["interpolated over 12.5 s", "visit", "end fix 40 s away", "at a fix", "by hand"])
    #expect(sources.map(\.from) == ["day 1\tmorning.gpx", "Timeline.json", "beside IMG_0399.HEIC", "a.igc", "by hand"])
    for junk in ["", "track", "boat\texact\t\tx", "track\tguessed\t\tx", "track\tinterpolated\tnan"] {
      #expect(EstimateSource(text: junk) == nil, "\(junk)")
    }
  }
}
