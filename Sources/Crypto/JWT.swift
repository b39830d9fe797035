import Foundation

/// Compact JWS / JWT (RFC 7515, RFC 7519) with ES256 only.
public enum JWT {
    /// A typical JOSE header: `alg` ES256 plus optional `typ` and `kid` (e.g. `at+jwt`, `appview-oauth-key`).
    public struct Header: Codable, Sendable, Equatable {
        public var alg: String
        public var typ: String?
        public var kid: String?

        /// - Parameters:
        ///   - typ: media type such as "JWT", "at+jwt" or "dpop+jwt".
        ///   - kid: key id matching the JWKS entry.
        public init(typ: String? = "JWT", kid: String? = nil) {
            self.alg = "ES256"
            self.typ = typ
            self.kid = kid
        }
    }

    /// Tokens longer than this are refused before any parsing; ours are well under 2 KB.
    public static let maximumLength = 16 * 1024

    /// Signs `claims` under `header` with ES256.
    /// - Parameters:
    ///   - header: any encodable header; it must encode `"alg":"ES256"`.
    ///   - claims: the payload.
    ///   - key: the signing key.
    /// - Returns: `base64url(header).base64url(claims).base64url(r||s)`.
    public static func sign<Header: Encodable, Claims: Encodable>(
        header: Header, claims: Claims, key: P256PrivateKey
    ) throws(CryptoError) -> String {
        let headerJSON = try encode(header, what: "header")
        let claimsJSON = try encode(claims, what: "claims")
        guard (try? JSONDecoder().decode(AlgorithmHeader.self, from: Data(headerJSON)))?.alg == "ES256" else {
            throw CryptoError("JWT header must have alg ES256")
        }
        let signingInput = Base64URL.encode(headerJSON) + "." + Base64URL.encode(claimsJSON)
        let signature = try key.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Splits and decodes a compact JWS without verifying it.
    ///
    /// Refuses anything that is not three unpadded base64url parts whose first two are JSON of the given types.
    /// - Returns: the decoded parts, the ASCII signing input (`header.claims`) and the raw signature bytes.
    public static func decode<Header: Decodable, Claims: Decodable>(
        _ token: String, header: Header.Type, claims: Claims.Type
    ) throws(CryptoError) -> (header: Header, claims: Claims, signingInput: [UInt8], signature: [UInt8]) {
        let parts = try split(token)
        return (
            try decodeJSON(Header.self, from: parts.header, what: "header"),
            try decodeJSON(Claims.self, from: parts.claims, what: "claims"),
            parts.signingInput, parts.signature
        )
    }

    /// Decodes `token`, checks that `alg` is ES256 and the signature verifies with `key`, then returns the claims.
    ///
    /// Claims such as `exp`, `aud` and `iss` are the caller's to check.
    public static func verify<Claims: Decodable>(
        _ token: String, key: P256PublicKey, claims: Claims.Type
    ) throws(CryptoError) -> Claims {
        try verify(token, key: key, header: AlgorithmHeader.self, claims: Claims.self).claims
    }

    /// Like ``verify(_:key:claims:)`` but also returns the header, for callers that check `typ` or `kid`.
    public static func verify<Header: Decodable, Claims: Decodable>(
        _ token: String, key: P256PublicKey, header: Header.Type, claims: Claims.Type
    ) throws(CryptoError) -> (header: Header, claims: Claims) {
        let parts = try split(token)
        let algorithm = try decodeJSON(AlgorithmHeader.self, from: parts.header, what: "header")
        guard algorithm.alg == "ES256" else { throw CryptoError("JWT alg must be ES256, got \(algorithm.alg)") }
        // RFC 7515 §4.1.11: extensions we do not understand make the token unacceptable.
        guard algorithm.crit == nil else { throw CryptoError("JWT has critical header extensions") }
        guard key.isValidSignature(parts.signature, for: parts.signingInput) else {
            throw CryptoError("JWT signature is invalid")
        }
        return (
            try decodeJSON(Header.self, from: parts.header, what: "header"),
            try decodeJSON(Claims.self, from: parts.claims, what: "claims")
        )
    }

    struct Parts {
        var header: [UInt8]
        var claims: [UInt8]
        var signingInput: [UInt8]
        var signature: [UInt8]
    }

    static func split(_ token: String) throws(CryptoError) -> Parts {
        let bytes = Array(token.utf8)
        guard bytes.count <= maximumLength else { throw CryptoError("JWT is longer than \(maximumLength) bytes") }
        let pieces = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard pieces.count == 3, !pieces[0].isEmpty, !pieces[1].isEmpty,
            pieces.allSatisfy({ $0.allSatisfy(\.isUnpaddedBase64URL) }),
            let header = Base64URL.decode(String(decoding: pieces[0], as: UTF8.self)),
            let claims = Base64URL.decode(String(decoding: pieces[1], as: UTF8.self)),
            let signature = Base64URL.decode(String(decoding: pieces[2], as: UTF8.self))
        else { throw CryptoError("not a compact JWS: expected three unpadded base64url parts") }
        return Parts(
            header: header, claims: claims, signingInput: Array(bytes[..<(pieces[0].count + 1 + pieces[1].count)]),
            signature: signature)
    }

    static func decodeJSON<T: Decodable>(_ type: T.Type, from json: [UInt8], what: String) throws(CryptoError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(json))
        } catch {
            throw CryptoError("JWT \(what) is not the expected JSON: \(error)")
        }
    }

    private static func encode<T: Encodable>(_ value: T, what: String) throws(CryptoError) -> [UInt8] {
        let encoder = JSONEncoder()
        // URLs in htu, iss and aud read as written; escaped slashes are legal but noisy.
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw CryptoError("cannot encode JWT \(what): \(error)")
        }
    }

    private struct AlgorithmHeader: Decodable {
        var alg: String
        var crit: [String]?
    }
}

extension UInt8 {
    fileprivate var isUnpaddedBase64URL: Bool {
        (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || (self >= 0x30 && self <= 0x39)
            || self == 0x2D || self == 0x5F
    }
}
