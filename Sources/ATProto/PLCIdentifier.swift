public import Crypto

/// Mints DIDs for household accounts of the embedded backend.
///
/// They have the did:plc shape (24 characters of base32 derived from a SHA-256 of a genesis
/// document, as PLC derives them) so that every client accepts them, but they are local: never
/// registered with a PLC directory. The genesis is random, so a DID is stable once stored.
public enum LocalDID {
    public static func mint(genesis: [UInt8] = SecureRandom.bytes(32)) -> DID {
        let id = String(Base32.encode(SHA256.hash(genesis)).prefix(24))
        // Cannot fail: the prefix is 24 base32 characters.
        return try! DID("did:plc:" + id)
    }
}
