internal import CGeoPhotoBrotli

/// Brotli decompression (RFC 7932) through libbrotlidec, for JPEG XL's `brob` boxes.
enum Brotli {
  /// The decompressed bytes, or `nil` when the stream is broken, truncated or would grow past
  /// `limit` bytes (a small box must not balloon into gigabytes).
  static func decompress(_ input: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
    guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { return nil }
    defer { BrotliDecoderDestroyInstance(state) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    return input.withUnsafeBufferPointer { source -> [UInt8]? in
      var availableIn = source.count
      var nextIn = source.baseAddress
      while true {
        var availableOut = chunk.count
        let result = chunk.withUnsafeMutableBufferPointer { out -> BrotliDecoderResult in
          var nextOut = out.baseAddress
          return BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
        }
        output += chunk[0..<(chunk.count - availableOut)]
        guard output.count <= limit else { return nil }
        switch result {
        case BROTLI_DECODER_RESULT_SUCCESS: return output
        case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
        default: return nil  // an error, or input that ends inside the stream
        }
      }
    }
  }
}
