import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoExif

@Suite struct BuilderRoundTripTests {
  func read(_ bytes: [UInt8]) throws -> PhotoMetadata {
    guard case .metadata(let m) = Corpus.metadata(bytes: bytes) else {
      throw ReadFailure()
    }
    return m
  }
  struct ReadFailure: Error {}

  @Test(arguments: [false, true])
  func everyFieldRoundTrips(bigEndian: Bool) throws {
    let jpeg = SampleJPEG.make { b in
      b.coordinate = Coordinate(latitude: -33.856784, longitude: 151.215297)
      b.altitude = -12.5
      b.takenAt = CaptureDate(year: 2024, month: 5, day: 3, hour: 14, minute: 5, second: 9, utcOffsetMinutes: 600)
      b.imageDescription = "Opera House"
      b.make = "Canon"
      b.model = "EOS R5"
      b.orientation = 6
      b.bigEndian = bigEndian
    }
    let m = try read(jpeg)
    let c = try #require(m.coordinate)
    // Seconds are stored to 1e-6″, about 3e-10°.
    #expect(abs(c.latitude - -33.856784) < 1e-9)
    #expect(abs(c.longitude - 151.215297) < 1e-9)
    #expect(m.altitude == -12.5)
    #expect(m.takenAt?.iso8601 == "2024-05-03T14:05:09+10:00")
    #expect(m.title == "Opera House")
    #expect(m.cameraMake == "Canon" && m.cameraModel == "EOS R5")
    #expect(m.orientation == 6)
    #expect(m.width == 16 && m.height == 16)  // from the frame header
  }

  @Test func xpTitleIsTheFallbackTitle() throws {
    let m = try read(SampleJPEG.make { $0.xpTitle = "東京駅" })
    #expect(m.title == "東京駅")
    let placeholder = try read(
      SampleJPEG.make { b in
        b.imageDescription = "OLYMPUS DIGITAL CAMERA"
        b.xpTitle = "Harbour"
      })
    #expect(placeholder.title == "Harbour")
    #expect(try read(SampleJPEG.plain).title == nil)
  }

  /// Text fields lose the spaces, tabs and CR LF pairs at their ends (and only those), and
  /// stop at their first NUL; one that is nothing else is no value.
  @Test func textFieldsAreTrimmedAtTheirEnds() throws {
    let cases: [(written: String, read: String?)] = [
      ("Opera House", "Opera House"), ("  Opera House \t", "Opera House"), ("\tHarbour  Bridge", "Harbour  Bridge"),
      ("\r\nCircular Quay\r\n", "Circular Quay"), ("Manly\u{0}ferry", "Manly"), (" \t ", nil),
      ("Bondi ☀︎ ", "Bondi ☀︎"),
    ]
    for (written, expected) in cases {
      let m = try read(
        SampleJPEG.make { b in
          b.imageDescription = written
          b.make = written
        })
      #expect(m.title == expected, "\(written.debugDescription)")
      #expect(m.cameraMake == expected, "\(written.debugDescription)")
    }
  }

  @Test func offsetIsInferredFromGPSTime() throws {
    // Shutter at 22:53:51 local, GPS fix at 20:52:10 UTC → +02:00 (Google.jpg's case).
    let local = CaptureDate(year: 2023, month: 10, day: 6, hour: 22, minute: 53, second: 51)
    let utc = CaptureDate(year: 2023, month: 10, day: 6, hour: 20, minute: 52, second: 10).localSecondsSinceEpoch
    let m = try read(
      SampleJPEG.make { b in
        b.coordinate = Coordinate(latitude: 40.4, longitude: -3.7)
        b.takenAt = local
        b.gpsTime = utc
      })
    #expect(m.takenAt?.utcOffsetMinutes == 120 && m.offsetFromGPS)
    // A recorded offset is the camera's, GPS or not.
    let recorded = try read(
      SampleJPEG.make { b in
        b.takenAt = CaptureDate(year: 2023, month: 10, day: 6, hour: 22, minute: 53, second: 51, utcOffsetMinutes: 60)
        b.gpsTime = utc
      })
    #expect(recorded.takenAt?.utcOffsetMinutes == 60 && !recorded.offsetFromGPS)
    // Across midnight: 00:30 local on the 7th, 22:31 UTC on the 6th.
    let late = try read(
      SampleJPEG.make { b in
        b.takenAt = CaptureDate(year: 2023, month: 10, day: 7, hour: 0, minute: 30)
        b.gpsTime = CaptureDate(year: 2023, month: 10, day: 6, hour: 22, minute: 31).localSecondsSinceEpoch
      })
    #expect(late.takenAt?.utcOffsetMinutes == 120)
  }

  @Test func zeroZeroAndOutOfRangeAreNoLocation() throws {
    #expect(try read(SampleJPEG.make { $0.coordinate = Coordinate(latitude: 0, longitude: 0) }).coordinate == nil)
    #expect(try read(SampleJPEG.make { $0.coordinate = Coordinate(latitude: 95, longitude: 10) }).coordinate == nil)
  }

  @Test func headerProblems() {
    #expect(Corpus.metadata(bytes: []) == .failed(.emptyFile))
    #expect(Corpus.metadata(bytes: Array("hello, not a photo".utf8)) == .failed(.notA(.jpeg)))
    let jpeg = SampleJPEG.make { $0.imageDescription = "x" }
    #expect(Corpus.metadata(bytes: Array(jpeg.prefix(40))) == .failed(.truncated))
    // A prefix of a longer file asks for more instead.
    let outcome = jpeg.prefix(40).withUnsafeBytes { MetadataReader.jpeg($0, fileSize: jpeg.count) }
    guard case .needBytes(let n) = outcome else {
      Issue.record("expected a request for more bytes, got \(outcome)")
      return
    }
    #expect(n > 40 && n <= jpeg.count)
  }
}
