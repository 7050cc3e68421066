/// Every photo format geophoto reads, in one place: its name, its file extensions, how its
/// first bytes are recognised and which reader takes its metadata. The folder walk, the error
/// texts, `sync --help`, the fuzz targets and the ASan replay all read this list, so a new
/// format is a new case here and its reader.
public enum PhotoFormat: String, CaseIterable, Sendable, CustomStringConvertible {
  // In the order signatures are tried.
  case jpeg, png, tiff, raw, cr3, raf, mrw, webp, heif, jpegXL, video

  /// How people call it: `JPEG`, `HEIF`.
  public var name: String {
    switch self {
    case .jpeg: return "JPEG"
    case .png: return "PNG"
    case .tiff: return "TIFF"
    case .raw: return "camera RAW"
    case .cr3: return "Canon CR3"
    case .raf: return "Fujifilm RAF"
    case .mrw: return "Minolta MRW"
    case .webp: return "WebP"
    case .heif: return "HEIF"
    case .jpegXL: return "JPEG XL"
    case .video: return "QuickTime/MP4 video"
    }
  }

  /// What it is, for help and README: `TIFF and DNG`.
  public var label: String {
    switch self {
    case .tiff: return "TIFF/DNG"
    case .raw: return "TIFF-based camera RAW (CR2, NEF, ARW, ORF, RW2, …)"
    case .heif: return "HEIC/HEIF/AVIF"
    case .video: return "videos (MOV, MP4, M4V, 3GP)"
    default: return name
    }
  }

  /// File name extensions, lower case, without the dot; names match in any case.
  public var extensions: [String] {
    switch self {
    case .jpeg: return ["jpg", "jpeg"]
    case .png: return ["png"]
    case .tiff: return ["tif", "tiff", "dng"]
    // TIFF structures under the makers' names; ORF and RW2/RWL differ only in their magic.
    case .raw:
      return [
        "cr2", "nef", "nrw", "arw", "sr2", "srf", "pef", "srw", "3fr", "erf", "mef", "mos", "iiq", "dcr", "kdc", "orf",
        "rw2", "rwl",
      ]
    case .cr3: return ["cr3"]
    case .raf: return ["raf"]
    case .mrw: return ["mrw"]
    case .webp: return ["webp"]
    case .heif: return ["heic", "heif", "hif", "avif"]
    case .jpegXL: return ["jxl"]
    case .video: return ["mov", "mp4", "m4v", "3gp", "3g2"]
    }
  }

  /// Whether entries of this format are videos: annotations and the API say so, with the
  /// duration.
  public var isVideo: Bool { self == .video }

  /// How many leading bytes `matches` looks at.
  public static let signatureLength = 32

  /// Whether a file's first bytes are this format's.
  public func matches(signature b: [UInt8]) -> Bool {
    switch self {
    case .jpeg: return b.count >= 2 && b[0] == 0xFF && b[1] == 0xD8
    case .png: return b.count >= 8 && b[0...7].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    case .tiff:
      return b.count >= 4
        && (b[0...3].elementsEqual([0x49, 0x49, 0x2A, 0x00]) || b[0...3].elementsEqual([0x4D, 0x4D, 0x00, 0x2A]))
    case .raw: return Self.hasMakerTIFFMagic(b)
    case .cr3: return Self.brands(b)?.major == "crx "
    case .raf: return b.starts(with: Array("FUJIFILMCCD-RAW".utf8))
    case .mrw: return b.starts(with: [0x00] + Array("MRM".utf8))
    case .webp:
      return b.count >= 12 && b[0...3].elementsEqual(Array("RIFF".utf8)) && b[8...11].elementsEqual(Array("WEBP".utf8))
    case .heif:
      guard let brands = Self.brands(b) else { return false }
      return Self.stillImageBrands.contains(brands.major)
        || (brands.major != "crx " && brands.compatible.contains { Self.stillImageBrands.contains($0) })
    case .jpegXL:
      // A bare codestream, or the ISO-BMFF container's signature box.
      return b.starts(with: [0xFF, 0x0A]) || b.starts(with: [0, 0, 0, 0x0C] + Array("JXL \r\n".utf8) + [0x87, 0x0A])
    case .video:
      // Any other ISO-BMFF file, and old QuickTime files that start with a movie box.
      guard b.count >= 8 else { return false }
      return Self.brands(b) != nil || Self.quickTimeFirstBoxes.contains(String(decoding: b[4..<8], as: UTF8.self))
    }
  }

  /// ISO-BMFF brands of HEIF still images and sequences (HEIC, AVIF, and the generic ones).
  static let stillImageBrands: Set<String> = [
    "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "mif2", "msf1", "avif", "avis", "avci", "heif",
  ]
  /// Top-level boxes a QuickTime movie without `ftyp` may start with.
  static let quickTimeFirstBoxes: Set<String> = ["moov", "mdat", "wide", "free", "skip", "pnot"]

  /// The major and compatible brands of an ISO-BMFF file's `ftyp` box, as far as `b` holds it.
  static func brands(_ b: [UInt8]) -> (major: String, compatible: [String])? {
    guard b.count >= 12, b[4...7].elementsEqual(Array("ftyp".utf8)) else { return nil }
    let size = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
    let end = min(b.count, max(size, 16))
    let compatible = stride(from: 16, to: end - 3, by: 4).map { String(decoding: b[$0..<($0 + 4)], as: UTF8.self) }
    return (String(decoding: b[8..<12], as: UTF8.self), compatible)
  }

  /// A TIFF structure under a maker's own magic: Olympus ORF (`IIRO`, `IIRS`, `MMOR`) and
  /// Panasonic RW2/RWL (`IIU\0`). The TIFF reader skips the magic, so these read as TIFF;
  /// other TIFF-based RAW files carry TIFF's own magic and are recognised as TIFF.
  static func hasMakerTIFFMagic(_ b: [UInt8]) -> Bool {
    guard b.count >= 4 else { return false }
    let head = Array(b[0..<4])
    return [Array("IIRO".utf8), Array("IIRS".utf8), Array("MMOR".utf8), [0x49, 0x49, 0x55, 0x00]].contains(head)
  }

  /// The format whose signature a file starts with.
  public init?(signature: [UInt8]) {
    guard let format = Self.allCases.first(where: { $0.matches(signature: signature) }) else { return nil }
    self = format
  }

  /// The format a file name's extension claims.
  public init?(fileName: Substring) {
    guard let dot = fileName.lastIndex(of: ".") else { return nil }
    let ext = fileName[fileName.index(after: dot)...].lowercased()
    guard let format = Self.extensionIndex[ext] else { return nil }
    self = format
  }

  private static let extensionIndex: [String: PhotoFormat] = Dictionary(
    uniqueKeysWithValues: allCases.flatMap { format in format.extensions.map { ($0, format) } })

  /// Every extension of every format: `.jpg/.jpeg, .png, …`.
  public static var allExtensions: [String] { allCases.flatMap(\.extensions) }

  /// `JPEG, PNG, TIFF/DNG, WebP and HEIC/HEIF`.
  public static var summary: String {
    let labels = allCases.map(\.label)
    return labels.dropLast().joined(separator: ", ") + " and " + (labels.last ?? "")
  }

  /// The fuzz target that exercises this format's reader (`geophoto-fuzz`).
  public var fuzzTarget: String { rawValue }

  /// Extensions of the corpus files that seed this format's fuzzing: its own, and for the
  /// ISO-BMFF readers the other files of that family, whose boxes they walk as well.
  public var fuzzSeedExtensions: [String] {
    switch self {
    case .heif, .cr3, .video: return extensions + (self == .video ? ["heic"] : ["mp4", "mov"])
    case .raf: return extensions + ["jpg"]
    default: return extensions
    }
  }

  public var description: String { name }
}
