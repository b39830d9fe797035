import Crypto

/// Blob files named by their content: a CIDv1 string (base32, "b" multibase) whose multihash is SHA-256 names the
/// SHA-256 of the file's bytes, which the blob store computed when it wrote them (and never rewrites them).
enum ContentAddress {
    /// The SHA-256 (hex) that a file named `name` holds by its name: a CIDv1 of the raw (0x55) or dag-cbor (0x71)
    /// codec with a sha2-256 multihash; nil for any other name.
    static func sha256(named name: String) -> String? {
        guard name.utf8.count == 59, name.hasPrefix("b"), let bytes = Base32.decode(String(name.dropFirst())), bytes.count == 36,
            bytes[0] == 0x01, bytes[1] == 0x55 || bytes[1] == 0x71, bytes[2] == 0x12, bytes[3] == 0x20
        else { return nil }
        return Hex.encode(bytes[4...])
    }
}
