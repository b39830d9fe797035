/// PKCE (RFC 7636), S256 only.
public enum PKCE {
    /// A fresh verifier: 32 random bytes as base64url (43 characters).
    public static func makeVerifier() -> String {
        SecureRandom.token(byteCount: 32)
    }

    /// The S256 challenge: base64url(SHA-256(ASCII verifier)).
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(verifier))
    }

    /// RFC 7636 §4.1: 43 to 128 characters from `[A-Za-z0-9-._~]`.
    public static func isValidVerifier(_ verifier: String) -> Bool {
        let bytes = verifier.utf8
        return (43...128).contains(bytes.count)
            && bytes.allSatisfy { byte in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            }
    }

    /// The server-side check at the token endpoint: a well-formed verifier whose S256 challenge equals `challenge`.
    public static func verify(verifier: String, challenge expected: String) -> Bool {
        guard isValidVerifier(verifier) else { return false }
        return constantTimeEquals(Array(challenge(for: verifier).utf8), Array(expected.utf8))
    }
}
