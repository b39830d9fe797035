import Crypto

/// A CIDv1 with a SHA-256 multihash: `raw` for blobs ("bafkrei…") and `dag-cbor` for records ("bafyrei…").
public struct CID: Hashable, Sendable, CustomStringConvertible {
    public enum Codec: UInt64, Sendable {
        case raw = 0x55
        case dagCBOR = 0x71
    }

    public let codec: Codec
    public let digest: [UInt8]

    /// The CID of `bytes` under `codec`.
    public init(hashing bytes: [UInt8], codec: Codec) {
        self.codec = codec
        digest = SHA256.hash(bytes)
    }

    /// The CID whose SHA-256 digest is `digest` (32 bytes, as `SHA256.hash(fileAt:)` gives for a file).
    public init(codec: Codec, digest: [UInt8]) {
        self.codec = codec
        self.digest = digest
    }

    /// Parses the base32 string form; only the CIDs this server makes are accepted.
    public init(_ string: String) throws(SyntaxError) {
        guard string.hasPrefix("b"), let bytes = Base32.decode(String(string.dropFirst())), bytes.count == 36,
            bytes[0] == 0x01, bytes[2] == 0x12, bytes[3] == 0x20, let codec = Codec(rawValue: UInt64(bytes[1]))
        else { throw SyntaxError(kind: "CID", input: string) }
        self.codec = codec
        digest = Array(bytes[4...])
    }

    /// The binary form: version, codec, then the multihash (sha2-256, 32 bytes).
    public var bytes: [UInt8] { [0x01, UInt8(codec.rawValue), 0x12, 0x20] + digest }

    public var description: String { "b" + Base32.encode(bytes) }
}
