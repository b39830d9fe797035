/// The JOSE header of our access tokens (RFC 9068).
struct AccessTokenHeader: Codable, Sendable, Equatable {
    var typ: String
    var alg: String
    var kid: String

    init(kid: String) {
        typ = "at+jwt"
        alg = "ES256"
        self.kid = kid
    }
}

/// The claims of our access tokens, as hatk issues them.
struct AccessTokenClaims: Codable, Sendable, Equatable {
    /// The key confirmation: the DPoP key thumbprint the token is bound to.
    struct Confirmation: Codable, Sendable, Equatable {
        var jkt: String
    }

    var iss: String
    var sub: String
    var aud: String
    var client_id: String
    var scope: String
    var jti: String
    var iat: Int64
    var exp: Int64
    var cnf: Confirmation
}

/// The token endpoint's success body: hatk's keys plus `scope`, which the atproto profile requires.
struct TokenResponse: Encodable, Sendable {
    var access_token: String
    var token_type = "DPoP"
    var expires_in: Int64
    var refresh_token: String
    var sub: String
    var scope: String
    var handle: String?
}
