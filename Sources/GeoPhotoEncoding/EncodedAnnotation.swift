public import GeoPhotoCore

/// One annotation written once as compact JSON, as an object of its members or as a GeoJSON
/// feature, with room left for what changes from answer to answer: the distance, and the
/// subtitle when it shows the distance. A `/v1/near` answer is such fragments with the
/// distances written in, byte for byte what `AnnotationMembers` writes for the same
/// annotation at that distance.
public struct EncodedAnnotation: Sendable {
  /// The two shapes an annotation takes in answers.
  public enum Form: Sendable {
    /// `{"id", "source", "coordinate", "title", ...}` (`AnnotationDocument.json`).
    case object
    /// A Point feature with the members as properties (`AnnotationDocument.geoJSON`).
    case feature
  }

  /// Where the parts of a fragment's bytes lie, as offsets, so a cache can keep fragments in
  /// one buffer of bytes and their layouts in a few bytes each, and copy them out without
  /// reference counting.
  ///
  /// At a distance, an annotation is `head`, the distance's text when the subtitle shows it,
  /// `middle`, the distance in metres and `tail`: three copies and two numbers. The pieces lie
  /// one after another; when the subtitle shows the distance, the subtitle as written without
  /// one follows them.
  public struct Layout: Sendable {
    private let headEnd: UInt32
    private let middleEnd: UInt32
    private let tailEnd: UInt32
    /// The fragment's length.
    private let end: UInt32
    /// Where, without a distance, the bytes up to the subtitle's value end and those after it
    /// (in `middle`) start: when the subtitle shows the distance.
    private let prefixEnd: UInt32
    private let suffixStart: UInt32
    /// Whether the subtitle shows the distance.
    let showsDistance: Bool

    init(head: Int, middle: Int, tail: Int, end: Int, withoutDistance: (prefix: Int, suffix: Int)?) {
      precondition(end <= Int(UInt32.max), "an annotation of less than 4 GiB")
      headEnd = UInt32(head)
      middleEnd = UInt32(middle)
      tailEnd = UInt32(tail)
      self.end = UInt32(end)
      prefixEnd = UInt32(withoutDistance?.prefix ?? 0)
      suffixStart = UInt32(withoutDistance?.suffix ?? 0)
      showsDistance = withoutDistance != nil
    }

    /// Up to the subtitle's value, with the subtitle's text before the distance when it shows
    /// it; otherwise up to the distance's value (then `middle` is empty).
    var head: Range<Int> { 0..<Int(headEnd) }
    /// The subtitle's text after the distance, and on up to the distance's value.
    var middle: Range<Int> { Int(headEnd)..<Int(middleEnd) }
    /// After the distance's value, to the annotation's end.
    var tail: Range<Int> { Int(middleEnd)..<Int(tailEnd) }
    /// The fragment's length in bytes.
    public var count: Int { Int(end) }
    /// When the subtitle shows the distance, the annotation without one: the bytes up to the
    /// subtitle's value, the subtitle as written without a distance, and on up to the
    /// distance's value (then `null` and `tail`).
    var withoutDistance: (prefix: Range<Int>, subtitle: Range<Int>, suffix: Range<Int>)? {
      guard showsDistance else { return nil }
      return (0..<Int(prefixEnd), Int(tailEnd)..<Int(end), Int(suffixStart)..<Int(middleEnd))
    }
  }

  /// The annotation's pieces as `Layout` describes them.
  public let bytes: [UInt8]
  public let layout: Layout

  /// `annotation` (its distance is left out) in `form`; `template` is its subtitle's.
  public init(
    _ annotation: borrowing Annotation, subtitle template: SubtitleTemplate, form: Form,
    options: AnnotationDocument.Options
  ) {
    var w = JSONWriter(capacity: 512)
    w.marks = []
    switch form {
    case .object: AnnotationMembers.write(annotation, options: options, coordinate: true, to: &w)
    case .feature: AnnotationMembers.writeFeature(annotation, options: options, to: &w)
    }
    // `AnnotationMembers` marks both sides of the subtitle's and the distance's values.
    let marks = w.marks ?? []
    precondition(marks.count == 4, "AnnotationMembers marks its subtitle and distance")
    let written = w.bytes
    let subtitle = marks[0]..<marks[1]
    let distance = marks[2]..<marks[3]
    guard template.showsDistance else {
      // Up to the distance's value, and after it: the pieces as written.
      bytes = Array(written[..<distance.lowerBound]) + written[distance.upperBound...]
      layout = Layout(
        head: distance.lowerBound, middle: distance.lowerBound, tail: bytes.count, end: bytes.count,
        withoutDistance: nil)
      return
    }
    // `"leading · ` and ` · trailing"`, escaped as the writer escapes them.
    let separator = " · "
    let before = Self.quoted(template.leading.isEmpty ? "" : template.leading + separator).dropLast()
    let after = Self.quoted(template.trailing.isEmpty ? "" : separator + template.trailing).dropFirst()
    var bytes = Array(written[..<subtitle.lowerBound])
    bytes += before
    let head = bytes.count
    bytes += after
    let suffixStart = bytes.count
    bytes += written[subtitle.upperBound..<distance.lowerBound]
    let middle = bytes.count
    bytes += written[distance.upperBound...]
    let tail = bytes.count
    bytes += written[subtitle]
    self.bytes = bytes
    layout = Layout(
      head: head, middle: middle, tail: tail, end: bytes.count,
      withoutDistance: (subtitle.lowerBound, suffixStart))
  }

  /// `text` as a JSON string, quotes included.
  static func quoted(_ text: String) -> [UInt8] {
    var w = JSONWriter(capacity: text.utf8.count + 8)
    w.string(text)
    return w.bytes
  }
}

extension JSONWriter {
  /// `fragment` as the next value, `distance` metres from the query point.
  public mutating func annotation(_ fragment: EncodedAnnotation, distance: Double?) {
    fragment.bytes.withUnsafeBytes { annotation(encoded: $0, layout: fragment.layout, distance: distance) }
  }

  /// A fragment's `bytes` laid out as `layout` says, as the next value, `distance` metres from
  /// the query point: a few copies and one number (and the distance's text, when the subtitle
  /// shows it). Compact writers only: the fragment has no indentation.
  public mutating func annotation(
    encoded bytes: UnsafeRawBufferPointer, layout: EncodedAnnotation.Layout, distance: Double?
  ) {
    precondition(!pretty, "encoded annotations are compact")
    precondition(bytes.count >= layout.count, "a whole fragment")
    beforeValue()
    if let distance {
      write(UnsafeRawBufferPointer(rebasing: bytes[layout.head]))
      if layout.showsDistance {
        DistanceFormat.withHuman(distance) { write($0) }
        write(UnsafeRawBufferPointer(rebasing: bytes[layout.middle]))
      }
    } else if let plain = layout.withoutDistance {
      write(UnsafeRawBufferPointer(rebasing: bytes[plain.prefix]))
      write(UnsafeRawBufferPointer(rebasing: bytes[plain.subtitle]))
      write(UnsafeRawBufferPointer(rebasing: bytes[plain.suffix]))
    } else {
      write(UnsafeRawBufferPointer(rebasing: bytes[layout.head]))
    }
    // The fragment ends in `"distance":` here: the value comes next, without a comma.
    afterKey = true
    if let distance { metres(distance) } else { null() }
    write(UnsafeRawBufferPointer(rebasing: bytes[layout.tail]))
  }
}
