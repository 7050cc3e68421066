/// TIFF structures rearranged the way some writers lay them out, for tests and benchmarks.
public enum TIFFLayouts {
  /// A TIFF structure with its IFD0 moved behind `padding` bytes, as writers that put the
  /// directory after the pixel data do: the file is `head`, `padding` zero bytes, then `tail`
  /// (a copy of IFD0; every offset inside stays valid).
  public static func ifd0AtTheEnd(_ tiff: [UInt8], padding: Int) -> (head: [UInt8], tail: [UInt8]) {
    let little = tiff[0] == 0x49
    func u32(_ i: Int) -> Int {
      let b = tiff[i..<(i + 4)].map(Int.init)
      return little ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
    }
    let ifd0 = u32(4)
    let count = little ? Int(tiff[ifd0]) | Int(tiff[ifd0 + 1]) << 8 : Int(tiff[ifd0]) << 8 | Int(tiff[ifd0 + 1])
    let at = tiff.count + padding
    var head = tiff
    let o = [UInt8(at & 0xFF), UInt8((at >> 8) & 0xFF), UInt8((at >> 16) & 0xFF), UInt8(at >> 24)]
    head.replaceSubrange(4..<8, with: little ? o : o.reversed())
    return (head, Array(tiff[ifd0..<(ifd0 + 2 + 12 * count)]) + [0, 0, 0, 0])
  }
}
