import COpenSSL

/// Constant-time equality for secrets (tokens, MACs, hashes): the time taken does not depend on where the first
/// difference is. Different lengths return false at once; lengths are not secret here.
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    guard !a.isEmpty else { return true }
    return a.withUnsafeBytes { left in
        b.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0 }
    }
}

/// HMAC with SHA-256 (RFC 2104).
public enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key` (any length; longer than 64 bytes is hashed first, per RFC 2104).
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        // Empty arrays may hand out a nil base address; give libcrypto a real pointer with a zero length instead.
        let keyBytes = key.isEmpty ? [0] : key
        let messageBytes = message.isEmpty ? [0] : message
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            messageBytes.withUnsafeBufferPointer { messageBuffer in
                mac.withUnsafeMutableBufferPointer { out in
                    HMAC(
                        EVP_sha256(), keyBuffer.baseAddress, Int32(key.count), messageBuffer.baseAddress,
                        message.count, out.baseAddress, &length)
                }
            }
        }
        precondition(result != nil && length == 32, "libcrypto HMAC-SHA256 failed: \(OpenSSLErrors.drain() ?? "")")
        return mac
    }
}

/// HKDF with SHA-256 (RFC 5869), to derive independent keys (cookie, token sealing) from one configured secret.
public enum HKDFSHA256 {
    /// - Parameters:
    ///   - inputKeyMaterial: the secret.
    ///   - salt: optional non-secret salt; empty means 32 zero bytes.
    ///   - info: what the key is for, e.g. "grain-stories session cookie v1".
    ///   - outputByteCount: at most 255 × 32 bytes.
    public static func deriveKey(
        inputKeyMaterial: [UInt8], salt: [UInt8] = [], info: [UInt8], outputByteCount: Int
    ) -> [UInt8] {
        precondition((0...(255 * 32)).contains(outputByteCount), "HKDF-SHA256 output is limited to 8160 bytes")
        let pseudoRandomKey = HMACSHA256.authenticationCode(
            for: inputKeyMaterial, key: salt.isEmpty ? [UInt8](repeating: 0, count: 32) : salt)
        var output = [UInt8]()
        var block = [UInt8]()
        var counter: UInt8 = 1
        while output.count < outputByteCount {
            block = HMACSHA256.authenticationCode(for: block + info + [counter], key: pseudoRandomKey)
            output += block
            counter &+= 1
        }
        return Array(output.prefix(outputByteCount))
    }
}
