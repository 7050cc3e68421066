import GeoPhotoCore
import Testing

@Suite struct RedactorTests {
  @Test func removesSecretParametersAndValues() {
    let r = Redactor(secrets: ["abcd1234"])
    #expect(
      r.redact("https://api.flickr.com/services/rest/?method=m&api_key=abcd1234&lat=1")
        == "https://api.flickr.com/services/rest/?method=m&api_key=REDACTED&lat=1")
    #expect(r.redact("token=xyz and password=hunter2") == "token=REDACTED and password=REDACTED")
    #expect(r.redact("the key abcd1234 leaked") == "the key REDACTED leaked")
    #expect(r.redact("lat=35.6&lon=139.7") == "lat=35.6&lon=139.7")
  }

  @Test func escapesQueries() {
    #expect(
      QueryString.encode([("gscoord", "35.68|139.76"), ("d", "2024-05-03 10:00:00")])
        == "gscoord=35.68%7C139.76&d=2024-05-03%2010%3A00%3A00")
  }
}
