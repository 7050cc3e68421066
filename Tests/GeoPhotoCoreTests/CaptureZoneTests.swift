import Foundation
import GeoPhotoCore
import Testing

/// Local capture times read in a place's zone, against offsets and instants known from the
/// zones' published rules.
@Suite struct CaptureZoneTests {
  static func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) -> CaptureDate {
    CaptureDate(year: y, month: mo, day: d, hour: h, minute: mi)
  }

  @Test(arguments: [
    ("America/New_York", local(2024, 7, 4, 12, 0), -240, nil as LocalTimeAmbiguity?),
    ("America/New_York", local(2024, 1, 15, 12, 0), -300, nil),
    ("Australia/Sydney", local(2024, 6, 15, 12, 0), 600, nil),
    ("Australia/Sydney", local(2024, 12, 15, 12, 0), 660, nil),
    // Sydney's clocks go back from 03:00 to 02:00 on 7 April 2024, forward from 02:00 to 03:00
    // on 6 October 2024.
    ("Australia/Sydney", local(2024, 4, 7, 2, 30), 660, .fold),
    ("Australia/Sydney", local(2024, 10, 6, 2, 30), 660, .gap),
    ("Asia/Kathmandu", local(2024, 5, 3, 9, 0), 345, nil),
    ("Pacific/Chatham", local(2024, 6, 15, 12, 0), 765, nil),
    ("Pacific/Chatham", local(2024, 12, 15, 12, 0), 825, nil),
    ("Asia/Kolkata", local(2024, 1, 15, 12, 0), 330, nil),
    ("Asia/Kolkata", local(2024, 7, 15, 12, 0), 330, nil),
    // Berlin skips 02:00–03:00 on 31 March 2024 and has 02:00–03:00 twice on 27 October.
    ("Europe/Berlin", local(2024, 3, 31, 2, 30), 120, .gap),
    ("Europe/Berlin", local(2024, 10, 27, 2, 30), 120, .fold),
    ("Europe/Berlin", local(2024, 10, 27, 3, 30), 60, nil),
  ])
  func localTimesTakeTheirZonesOffset(zone: String, local: CaptureDate, minutes: Int, ambiguity: LocalTimeAmbiguity?)
    throws
  {
    let placed = local.placed(in: try #require(TimeZone(identifier: zone)))
    #expect(placed.date.utcOffsetMinutes == minutes, "\(zone) \(local)")
    #expect(placed.ambiguity == ambiguity, "\(zone) \(local)")
    // The wall clock is kept; the instant is the wall clock less the offset.
    #expect(placed.date.localSecondsSinceEpoch == local.localSecondsSinceEpoch)
    #expect(placed.date.instant == local.localSecondsSinceEpoch - minutes * 60)
  }

  @Test func nauticalZones() throws {
    #expect(CaptureDate.nauticalZone(longitude: -150) == "Etc/GMT+10")
    #expect(CaptureDate.nauticalZone(longitude: 135) == "Etc/GMT-9")
    #expect(CaptureDate.nauticalZone(longitude: 3) == "Etc/GMT")
    #expect(CaptureDate.nauticalZone(longitude: 179.9) == "Etc/GMT-12")
    #expect(CaptureDate.nauticalZone(longitude: -179.9) == "Etc/GMT+12")
    // A ship mid-Pacific, 150° W: ten hours behind UTC.
    let zone = try #require(TimeZone(identifier: CaptureDate.nauticalZone(longitude: -150)))
    #expect(Self.local(2024, 5, 3, 12, 0).placed(in: zone).date.utcOffsetMinutes == -600)
  }

  @Test func onlyTimesWithoutARecordedOffsetArePlaced() {
    let tokyo = ("Asia/Tokyo", OffsetSource.place)
    var floating = Photo(id: 1, source: .local, sourceID: "a", takenAt: Self.local(2024, 5, 3, 9, 0), title: "")
    floating.placeCaptureTime(in: tokyo)
    #expect(floating.takenAt?.utcOffsetMinutes == 540 && floating.offsetSource == .place)
    #expect(floating.timeZone == "Asia/Tokyo" && floating.offsetAmbiguity == nil)
    // Named again elsewhere: read again in the new zone.
    floating.placeCaptureTime(in: ("Europe/Berlin", .place))
    #expect(floating.takenAt?.utcOffsetMinutes == 120 && floating.timeZone == "Europe/Berlin")
    // No zone any more: floating again.
    floating.placeCaptureTime(in: nil)
    #expect(floating.takenAt?.utcOffsetMinutes == nil && floating.offsetSource == nil && floating.timeZone == nil)
    // A recorded offset is the camera's word.
    var recorded = floating
    recorded.takenAt?.utcOffsetMinutes = -300
    recorded.offsetSource = .camera
    recorded.placeCaptureTime(in: tokyo)
    #expect(recorded.takenAt?.utcOffsetMinutes == -300 && recorded.offsetSource == .camera)
    var gps = recorded
    gps.offsetSource = .gps
    gps.placeCaptureTime(in: tokyo)
    #expect(gps.takenAt?.utcOffsetMinutes == -300)
  }
}
