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

  /// Where the parts of a fragment's bytes lie: plain offsets, so a cache can keep fragments
  /// in one buffer of bytes and copy them out without reference counting.
  public struct Layout: Sendable {
    /// The subtitle's value and the distance's value.
    let subtitle: Range<Int>
    let distance: Range<Int>
    /// The subtitle's text before and after the distance, when it shows it (after the
    /// annotation's own bytes).
    let aroundDistance: (before: Range<Int>, after: Range<Int>)?
    /// Where the annotation's own bytes end.
    let end: Int
  }

  /// The annotation as `AnnotationMembers` wrote it without a distance; then, when its
  /// subtitle shows the distance, the subtitle's JSON before and after the distance's text.
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
    var bytes = w.bytes
    let end = bytes.count
    var around: (before: Range<Int>, after: Range<Int>)?
    if template.showsDistance {
      // `"leading · ` and ` · trailing"`, escaped as the writer escapes them.
      let separator = " · "
      let before = Self.quoted(template.leading.isEmpty ? "" : template.leading + separator).dropLast()
      let after = Self.quoted(template.trailing.isEmpty ? "" : separator + template.trailing).dropFirst()
      let start = bytes.count
      bytes += before
      bytes += after
      around = (start..<(start + before.count), (start + before.count)..<bytes.count)
    }
    self.bytes = bytes
    layout = Layout(subtitle: marks[0]..<marks[1], distance: marks[2]..<marks[3], aroundDistance: around, end: end)
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
    precondition(bytes.count >= (layout.aroundDistance?.after.upperBound ?? layout.end), "a whole fragment")
    beforeValue()
    write(UnsafeRawBufferPointer(rebasing: bytes[..<layout.subtitle.lowerBound]))
    if let around = layout.aroundDistance, let distance {
      write(UnsafeRawBufferPointer(rebasing: bytes[around.before]))
      DistanceFormat.withHuman(distance) { write($0) }
      write(UnsafeRawBufferPointer(rebasing: bytes[around.after]))
    } else {
      // Without a distance the subtitle is the one the fragment was written with.
      write(UnsafeRawBufferPointer(rebasing: bytes[layout.subtitle]))
    }
    write(UnsafeRawBufferPointer(rebasing: bytes[layout.subtitle.upperBound..<layout.distance.lowerBound]))
    // The fragment ends in `"distance":` here: the value comes next, without a comma.
    afterKey = true
    if let distance { metres(distance) } else { null() }
    write(UnsafeRawBufferPointer(rebasing: bytes[layout.distance.upperBound..<layout.end]))
  }
}
