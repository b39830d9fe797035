import COpenSSL

/// Cryptographically secure randomness from libcrypto's CSPRNG.
public enum SecureRandom {
    /// `count` random bytes. Traps only if the CSPRNG cannot be seeded, which leaves nothing safe to do.
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(ok == 1, "libcrypto RAND_bytes failed: no secure randomness available")
        return out
    }

    /// A random token of `byteCount` bytes, base64url without padding (for ids, state, nonces).
    public static func token(byteCount: Int = 32) -> String {
        Base64URL.encode(bytes(byteCount))
    }
}
