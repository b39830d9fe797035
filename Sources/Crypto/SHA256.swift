import COpenSSL

/// SHA-256 from libcrypto.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var digest = [UInt8](repeating: 0, count: 32)
        let input = Array(bytes)
        input.withUnsafeBufferPointer { inBuf in
            digest.withUnsafeMutableBufferPointer { outBuf in
                // One-shot EVP_Digest cannot fail for SHA-256 with valid pointers.
                _ = EVP_Digest(inBuf.baseAddress, inBuf.count, outBuf.baseAddress, nil, EVP_sha256(), nil)
            }
        }
        return digest
    }

    /// The digest of a string's UTF-8 bytes.
    public static func hash(_ string: String) -> [UInt8] {
        hash(Array(string.utf8))
    }
}
