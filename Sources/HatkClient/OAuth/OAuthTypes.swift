import Foundation

/// The parts of an authorization server's metadata (RFC 8414) the client uses.
public struct AuthorizationServerMetadata: Codable, Sendable, Equatable {
    public var issuer: String
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var pushedAuthorizationRequestEndpoint: String?
    public var revocationEndpoint: String?
    public var dpopSigningAlgValuesSupported: [String]?

    public init(
        issuer: String, authorizationEndpoint: String, tokenEndpoint: String, pushedAuthorizationRequestEndpoint: String?,
        revocationEndpoint: String?, dpopSigningAlgValuesSupported: [String]?
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.pushedAuthorizationRequestEndpoint = pushedAuthorizationRequestEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.dpopSigningAlgValuesSupported = dpopSigningAlgValuesSupported
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
    }
}

/// Tokens of one signed-in session. The access token is DPoP-bound to the session's key.
public struct TokenSet: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String?
    /// Unix seconds when the access token stops working.
    public var expiresAt: Int64
    /// The account's DID (`sub`).
    public var subject: String
    public var scope: String?
    public var handle: String?

    public init(accessToken: String, refreshToken: String?, expiresAt: Int64, subject: String, scope: String?, handle: String?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.subject = subject
        self.scope = scope
        self.handle = handle
    }

    /// Refresh a minute early so a request never races the expiry.
    public func needsRefresh(now: Int64) -> Bool { now >= expiresAt - 60 }
}

/// What the client remembers between sending someone to sign in and their return to the callback.
public struct PendingAuthorization: Codable, Sendable, Equatable {
    public var state: String
    public var codeVerifier: String
    /// The DPoP private key (raw P-256 scalar) used for PAR; the same key must do the token exchange.
    public var dpopKey: [UInt8]
    public var issuer: String
    /// Unix seconds; pending sign-ins older than ten minutes are refused.
    public var createdAt: Int64

    public init(state: String, codeVerifier: String, dpopKey: [UInt8], issuer: String, createdAt: Int64) {
        self.state = state
        self.codeVerifier = codeVerifier
        self.dpopKey = dpopKey
        self.issuer = issuer
        self.createdAt = createdAt
    }
}

/// An OAuth failure: the server's `error` code and description, or a transport problem.
public struct OAuthError: Error, Sendable, CustomStringConvertible, Equatable {
    public var code: String
    public var detail: String
    public var status: Int

    public init(code: String, detail: String = "", status: Int = 0) {
        self.code = code
        self.detail = detail
        self.status = status
    }

    public var description: String { detail.isEmpty ? "OAuth error \(code)" : "OAuth error \(code): \(detail)" }

    /// The grant is dead (revoked, expired, reused): the session must end and the person sign in again.
    public var isInvalidGrant: Bool { code == "invalid_grant" }
}

/// The token endpoint's answer; hatk adds `sub` and `handle`, and leaves out `scope`.
struct TokenResponse: Decodable {
    var accessToken: String
    var tokenType: String
    var expiresIn: Int64?
    var refreshToken: String?
    var sub: String?
    var scope: String?
    var handle: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case sub, scope, handle
    }
}

struct OAuthErrorBody: Decodable {
    var error: String
    var errorDescription: String?
    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
