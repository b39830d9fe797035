import CZlib

/// gzip (RFC 1952) through zlib, for `Content-Encoding: gzip`.
public enum Gzip {
    /// `bytes` compressed into one gzip member.
    /// - Parameter level: 1 (fastest) to 9 (smallest); assets are compressed once, so 9 by default.
    /// - Throws: `CompressionError` if zlib refuses (out of memory).
    public static func compress(_ bytes: [UInt8], level: Int32 = 9) throws(CompressionError) -> [UInt8] {
        var stream = z_stream()
        // deflateInit2 is a macro over deflateInit2_, which also checks the header's version and struct size.
        // Window bits 15 + 16 ask for the gzip wrapper instead of zlib's.
        let started = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { throw CompressionError(coding: "gzip", code: started) }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let result = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { throw CompressionError(coding: "gzip", code: result) }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}

/// A compressor refused its input.
public struct CompressionError: Error, Sendable, CustomStringConvertible {
    /// `gzip` or `br`.
    public let coding: String
    /// The library's result code.
    public let code: Int32

    public var description: String { "\(coding) compression failed (code \(code))" }
}
