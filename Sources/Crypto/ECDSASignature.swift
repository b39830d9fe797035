import COpenSSL

/// Conversion between libcrypto's DER ECDSA signatures and JOSE's raw `r || s` (RFC 7518 §3.4).
enum ECDSASignature {
    static let coordinateSize = 32

    /// DER `SEQUENCE { r, s }` to 64 bytes, each integer left-padded to 32 bytes.
    static func raw(fromDER der: [UInt8]) throws(CryptoError) -> [UInt8] {
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw .openSSL("cannot parse the DER ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(signature, &r, &s)
        var out = [UInt8](repeating: 0, count: 2 * coordinateSize)
        let ok = out.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(r, buffer.baseAddress, Int32(coordinateSize)) == Int32(coordinateSize)
                && BN_bn2binpad(s, buffer.baseAddress! + coordinateSize, Int32(coordinateSize)) == Int32(coordinateSize)
        }
        guard ok else { throw .openSSL("ECDSA signature integers do not fit in 32 bytes") }
        return out
    }

    /// 64 raw bytes to DER; nil for any other length or if libcrypto refuses.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 2 * coordinateSize, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = raw.withUnsafeBufferPointer { buffer in
            (
                BN_bin2bn(buffer.baseAddress, Int32(coordinateSize), nil),
                BN_bin2bn(buffer.baseAddress! + coordinateSize, Int32(coordinateSize), nil)
            )
        }
        // set0 takes ownership of both numbers only when it succeeds.
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            OpenSSLErrors.discard()
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else {
            OpenSSLErrors.discard()
            return nil
        }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? out : nil
    }
}
