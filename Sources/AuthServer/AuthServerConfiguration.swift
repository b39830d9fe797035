import Crypto

/// A client allowed to use the authorization server without being a loopback client, as in hatk's `oauth.clients`.
public struct RegisteredClient: Sendable, Equatable {
    /// The exact `client_id` the client sends.
    public var clientID: String
    /// The redirect URIs it may use, compared as exact strings.
    public var redirectURIs: [String]
    /// The name the sign-in page shows; the client_id when nil.
    public var clientName: String?

    /// - Parameters:
    ///   - clientID: The exact `client_id`.
    ///   - redirectURIs: The allowed redirect URIs (exact match).
    ///   - clientName: A human name for the sign-in page.
    public init(clientID: String, redirectURIs: [String], clientName: String? = nil) {
        self.clientID = clientID
        self.redirectURIs = redirectURIs
        self.clientName = clientName
    }
}

/// How the embedded authorization server behaves.
public struct AuthServerConfiguration: Sendable {
    /// The issuer URL (scheme, host, port, no trailing slash), the same origin as the backend.
    /// ``AuthServer/setIssuer(_:)`` replaces it once a server bound to port 0 knows its port.
    public var issuer: String
    /// Clients accepted besides loopback ones (hatk's `oauth.clients` allowlist).
    public var registeredClients: [RegisteredClient]
    /// hatk issues no DPoP nonces; on, the server behaves like an atproto-profile server: a `DPoP-Nonce` header on
    /// every answer, `use_dpop_nonce` errors for proofs without a current nonce, rotation every few minutes.
    public var requireDPoPNonce: Bool = false
    /// How long an access token is valid (hatk: one hour).
    public var accessTokenLifetime: Duration = .seconds(3600)
    /// How long each refresh token is valid from its issue (hatk: 14 days, renewed at every rotation).
    public var refreshTokenLifetime: Duration = .seconds(14 * 86400)
    /// The scrypt cost of new password hashes; tests use the fast parameters.
    public var passwordParameters: PasswordHash.Parameters = .standard
    /// Failed sign-ins allowed per client IP and per username within ``signInWindow``.
    public var signInAttemptsPerWindow: Int = 10
    /// The window over which failed sign-ins are counted.
    public var signInWindow: Duration = .seconds(300)

    /// - Parameters:
    ///   - issuer: The issuer URL, e.g. `http://127.0.0.1:8080`.
    ///   - registeredClients: Clients accepted besides loopback clients.
    public init(issuer: String, registeredClients: [RegisteredClient] = []) {
        self.issuer = issuer
        self.registeredClients = registeredClients
    }
}

extension Duration {
    /// Whole seconds, for token lifetimes and `Retry-After`.
    var wholeSeconds: Int64 { components.seconds }
}
