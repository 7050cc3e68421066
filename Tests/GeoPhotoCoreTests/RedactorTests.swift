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

  @Test(arguments: [
    ("GET /v1/near?lat=1&TOKEN=s3cr%20t&x=2", "GET /v1/near?lat=1&TOKEN=REDACTED&x=2"),
    ("Access_Token=abc def", "Access_Token=REDACTED def"),
    // A value ends at a quote; an empty one stays empty.
    ("sig=\"quoted\" key='k' auth=", "sig=\"quoted\" key='k' auth="),
    ("\"url\": \"https://x/?api_key=k3y\"", "\"url\": \"https://x/?api_key=REDACTED\""),
    ("my_token=abc&token_x=1&xkey=2", "my_token=abc&token_x=1&xkey=2"),
    ("étoken=abc Tokyo=東京&password=東京\tnext", "étoken=abc Tokyo=東京&password=REDACTED\tnext"),
    ("no parameters at all", "no parameters at all"), ("=token=", "=token="), ("", ""),
    ("a=b=token=c&token=d", "a=b=token=REDACTED&token=REDACTED"),
  ])
  func secretParametersLoseTheirValues(text: String, redacted: String) {
    #expect(Redactor().redact(text) == redacted)
  }

  @Test func escapesQueries() {
    #expect(
      QueryString.encode([("gscoord", "35.68|139.76"), ("d", "2024-05-03 10:00:00")])
        == "gscoord=35.68%7C139.76&d=2024-05-03%2010%3A00%3A00")
  }
}
