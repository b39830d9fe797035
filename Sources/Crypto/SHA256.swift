import COpenSSL

/// SHA-256 from libcrypto.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBytes { out in withBytes(of: bytes) { Self.digest(of: $0, into: out) } }
        return digest
    }

    /// The digest of a string's UTF-8 bytes.
    public static func hash(_ string: String) -> [UInt8] {
        hash(string.utf8)
    }

    /// The digest of a string's UTF-8 bytes as a value, without an array: a signed-in request's cached page is found
    /// by its session cookie's digest.
    public static func digest(_ string: String) -> Digest {
        var digest = Digest()
        withUnsafeMutableBytes(of: &digest.words) { out in withBytes(of: string.utf8) { Self.digest(of: $0, into: out) } }
        return digest
    }

    /// A SHA-256 digest as four words: hashable and comparable without an allocation.
    public struct Digest: Hashable, Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        init() {}

        /// The digest whose lowercase hex is `hex`; nil for anything else.
        public init?(hex: String) {
            let bytes = Array(hex.utf8)
            guard bytes.count == 64 else { return nil }
            var ok = true
            withUnsafeMutableBytes(of: &words) { out in
                for index in 0..<32 {
                    guard let high = Self.nibble(bytes[2 * index]), let low = Self.nibble(bytes[2 * index + 1]) else {
                        ok = false
                        return
                    }
                    out[index] = high << 4 | low
                }
            }
            guard ok else { return nil }
        }

        /// Lowercase hex, as `Hex.encode` of the bytes.
        public var hex: String { withUnsafeBytes(of: words) { Hex.encode($0) } }

        public static func == (a: Digest, b: Digest) -> Bool {
            a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
        }

        public func hash(into hasher: inout Swift.Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }

        private static func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x61...0x66: byte - 0x57
            default: nil
            }
        }
    }

    private static func withBytes<Bytes: Collection, T>(of bytes: Bytes, _ body: (UnsafeRawBufferPointer) -> T) -> T
    where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(bytes).withUnsafeBytes(body)
    }

    private static func digest(of input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count == 32)
        // One-shot EVP_Digest cannot fail for SHA-256 with valid pointers.
        _ = EVP_Digest(input.baseAddress, input.count, output.baseAddress, nil, algorithm.pointer, nil)
    }

    /// SHA-256 fetched from OpenSSL 3's default provider once: `EVP_sha256()` makes every digest look the algorithm
    /// up again, under a lock, which showed in the profile of a signed-in page (its session cookie is hashed).
    private static let algorithm = Algorithm()

    private struct Algorithm: @unchecked Sendable {
        // Never freed: it lives as long as the process. Immutable once fetched, so it may be shared between threads.
        let pointer = EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()
    }
}
