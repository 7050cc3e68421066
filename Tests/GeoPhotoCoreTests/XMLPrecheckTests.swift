import Testing

@testable import GeoPhotoCore

@Suite struct XMLPrecheckTests {
  // Inputs that crashed FoundationXML's XMLParser when fuzzing the XMP reader, and a bomb.
  @Test(arguments: [
    ("<?xpacket?>\n<x:xmpmeta xmlns:x=\"a\"/>", "has a processing instruction without data"),
    ("<x:xmpmeta xmlns:x", "has a namespace declaration without a value"),
    ("<?x?><a", "has a processing instruction without data"),
    ("<a xmlns:p=\"u\"><b xmlns:q", "has a namespace declaration without a value"),
    ("<!DOCTYPE a [<!ENTITY b \"c\">]><a>&b;</a>", "has a document type definition"),
  ])
  func refused(text: String, problem: String) {
    #expect(XMLPrecheck.problem(in: Array(text.utf8)) == problem)
  }

  @Test func notUTF8() {
    #expect(XMLPrecheck.problem(in: [0x3C, 0x61, 0xCB, 0xCB, 0x3E]) == "is not UTF-8 text")
  }

  @Test(arguments: [
    "<?xml version=\"1.0\"?><a xmlns=\"urn:x\" xmlns:b='urn:y'>xmlns is a word here</a>",
    "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>",
    "<gpx><trk/></gpx>",
    "<a xmlns:i=\"http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/\"/>",
  ])
  func accepted(text: String) {
    #expect(XMLPrecheck.problem(in: Array(text.utf8)) == nil)
  }
}
