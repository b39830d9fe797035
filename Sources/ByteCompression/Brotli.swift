import CBrotli

/// Brotli (RFC 7932) through libbrotlienc, for `Content-Encoding: br`. Encoder only: the server never reads brotli.
public enum Brotli {
    /// `bytes` compressed in one call.
    /// - Parameters:
    ///   - quality: 0 (fastest) to 11 (smallest); assets are compressed once, so 11 by default.
    ///   - text: Tune for UTF-8 text (CSS, JavaScript, SVG) rather than generic bytes.
    /// - Throws: `CompressionError` if the encoder refuses (out of memory).
    public static func compress(_ bytes: [UInt8], quality: Int32 = 11, text: Bool = true) throws(CompressionError) -> [UInt8] {
        var size = BrotliEncoderMaxCompressedSize(bytes.count)
        guard size > 0 else { throw CompressionError(coding: "br", code: -1) }
        var output = [UInt8](repeating: 0, count: size)
        let ok = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                BrotliEncoderCompress(
                    quality, BROTLI_DEFAULT_WINDOW, text ? BROTLI_MODE_TEXT : BROTLI_MODE_GENERIC, input.count,
                    input.baseAddress, &size, out.baseAddress)
            }
        }
        guard ok == BROTLI_TRUE else { throw CompressionError(coding: "br", code: 0) }
        output.removeSubrange(size...)
        return output
    }
}
