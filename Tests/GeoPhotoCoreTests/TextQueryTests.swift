import GeoPhotoCore
import GeoPhotoFixtures
import Testing

/// The text rules, each against a document written out by hand.
@Suite struct TextQueryTests {
  static func matches(_ query: String, _ fields: [String]) throws -> Bool {
    try TextQuery(query).matches(document: SearchText.document(fields))
  }

  @Test func caseAndDiacriticsAreIgnored() throws {
    #expect(try Self.matches("kyoto", ["Kyōto"]))
    #expect(try Self.matches("KYŌTO", ["kyoto station"]))
    #expect(try Self.matches("sao paulo", ["São Paulo"]))
    #expect(try Self.matches("zurich", ["Zürich HB"]))
    #expect(try Self.matches("kobenhavn", ["København"]))
    #expect(try Self.matches("strasse", ["Lange Straße 5"]))
    #expect(try Self.matches("aero", ["Ærø"]))
    #expect(try Self.matches("lodz", ["Łódź"]))
    #expect(try Self.matches("kyoto", ["ＫＹＯＴＯ"]))  // full-width letters
    #expect(try Self.matches("moskva", ["Moskva"]) && !(try Self.matches("moskva", ["Москва"])))
    #expect(try Self.matches("ёлка", ["Елка"]))  // Cyrillic diacritics too
  }

  @Test func aWordMatchesTheStartOfAWord() throws {
    #expect(try Self.matches("temp", ["Kiyomizu temple"]))
    #expect(!(try Self.matches("temp", ["contempt"])))
    #expect(!(try Self.matches("emple", ["temple"])))
    #expect(try Self.matches("dera", ["Kiyomizu-dera"]))  // punctuation separates words
    #expect(try Self.matches("img_1234", ["IMG_1234.JPG"]))
    #expect(try Self.matches("x100", ["X100V"]))
  }

  @Test func everyWordMustMatch() throws {
    #expect(try Self.matches("kyoto temple", ["Temple at dusk", "Kyoto"]))
    #expect(!(try Self.matches("kyoto temple", ["Temple at dusk", "Osaka"])))
    #expect(try Self.matches("temple temple", ["temple"]))
  }

  @Test func quotedPhrasesMatchAsConsecutiveWords() throws {
    #expect(try Self.matches("\"golden pavilion\"", ["The Golden Pavilion, Kyoto"]))
    #expect(try Self.matches("\"golden pav\"", ["The Golden Pavilion"]))  // the last word may be a start
    #expect(!(try Self.matches("\"golden pavilion\"", ["Golden temple pavilion"])))
    #expect(!(try Self.matches("\"olden pavilion\"", ["The Golden Pavilion"])))
    #expect(!(try Self.matches("\"tokyo kyoto\"", ["Tokyo", "Kyoto"])))  // not across fields
    #expect(try Self.matches("“golden pavilion” kyoto", ["Golden Pavilion", "Kyoto"]))
    #expect(try Self.matches("\"golden pavilion", ["Golden Pavilion"]))  // an unclosed quote runs to the end
  }

  @Test func unspacedScriptsMatchAsSubstrings() throws {
    #expect(try Self.matches("浅草", ["浅草寺の朝"]))
    #expect(try Self.matches("寺の朝", ["浅草寺の朝"]))
    #expect(try Self.matches("京都", ["京都tower"]) && (try Self.matches("tower", ["京都tower"])))
    #expect(!(try Self.matches("大阪", ["浅草寺の朝"])))
    // Kana voicing is not a diacritic: が is not か.
    #expect(!(try Self.matches("か", ["がっこう"])))
    #expect(try Self.matches("ｶﾞｯｺｳ", ["ガッコウ"]))  // half-width katakana
    #expect(try Self.matches("วัด", ["วัดพระแก้ว"]))  // Thai
  }

  @Test func textWithoutWordsIsAnError() throws {
    for bad in ["", "   ", "!!!", "\"\"", "- / ."] {
      #expect(throws: InputParser.Failure.self, "\(bad)") { try TextQuery(bad) }
    }
    // At most 32 terms: each is a condition of the stores' queries.
    let many = (1...33).map { "w\($0)" }
    #expect(throws: InputParser.Failure.self) { try TextQuery(many.joined(separator: " ")) }
    #expect(try TextQuery(many.dropLast().joined(separator: " ")).needles.count == 32)
  }

  @Test func equalQueriesAreOneFilter() throws {
    #expect(try TextQuery("Kyōto  temple") == TextQuery("kyoto TEMPLE"))
    #expect(try TextQuery("kyoto temple") != TextQuery("\"kyoto temple\""))
  }

  /// Fields as the index stores them, written out by hand: ASCII text (read in one pass) and
  /// text with other characters (folded) cut the same way.
  @Test func fieldsAreFoldedWordsEachAfterASpace() {
    #expect(SearchText.field("Kiyomizu-dera, 1633!") == " kiyomizu dera 1633")
    #expect(SearchText.field("Kiyōmizu-dera, 1633!") == " kiyomizu dera 1633")
    #expect(SearchText.field("IMG_0042.JPG") == " img 0042 jpg")
    #expect(SearchText.field("  A  ") == " a")
    #expect(SearchText.field("--- ... ---") == "" && SearchText.field("") == "")
    #expect(SearchText.field("浅草寺 Gate") == " 浅 草 寺 gate")
    #expect(SearchText.document(["Opera House", nil, "", "Canon", "EOS R5"]) == " opera house\n canon\n eos r5")
  }

  /// A local photo's file name is searched: the last component of its path.
  @Test func aLocalPhotosFileNameIsSearched() {
    var photo = Photo(id: 1, source: .local, sourceID: "/photos/2024/IMG_0042.JPG", title: "Harbour")
    photo.sourceID = "/photos/2024/IMG_0042.JPG"
    #expect(SearchText.photoText(of: photo) == " harbour\n img 0042 jpg")
    photo.sourceID = "IMG_7.HEIC"
    #expect(SearchText.photoText(of: photo) == " harbour\n img 7 heic")
    photo.sourceID = "/photos/trip/"
    #expect(SearchText.photoText(of: photo) == " harbour\n trip")
  }

  /// The flat scan finds exactly the documents one-by-one matching finds.
  @Test func documentsScanAgreesWithMatching() throws {
    let words = ["temple", "Kyōto", "shrine", "浅草寺", "gate", "Tokyo", "tem", "bridge", "Brücke", "x", "寺"]
    var rng = SeededGenerator(seed: 5)
    let documents = (0..<2_000).map { _ in
      SearchText.document(
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in
          (0..<Int.random(in: 1...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(
            separator: Bool.random(using: &rng) ? " " : "")
        })
    }
    let scan = SearchDocuments(documents)
    for text in ["temple", "tem", "kyoto temple", "\"temple gate\"", "寺", "浅草", "brucke", "x", "zzz", "gate tokyo"] {
      let query = try TextQuery(text)
      let expected = documents.indices.filter { query.matches(document: documents[$0]) }
      #expect(scan.positions(matching: query) == expected, "\(text)")
    }
  }
}
