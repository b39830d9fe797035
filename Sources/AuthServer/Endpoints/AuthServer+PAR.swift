import ATProto
import Crypto
import HTTPServer
import Logging
import RateLimits
import Storage
import Synchronization

extension AuthServer {
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"
    /// Seconds a pushed request stays usable (hatk: 600).
    static let requestLifetime: Int64 = 600
    /// Longest accepted value of each stored parameter, in bytes: room for every real client (Grain's whole scope
    /// list is about 350 bytes, a localhost client_id declaring it about 600), small for the database.
    static let maxParameterLengths: [(name: String, bytes: Int)] = [
        ("client_id", 1024), ("redirect_uri", 512), ("scope", 1024), ("state", 256), ("login_hint", 256),
        ("code_challenge", 128), ("code_challenge_method", 16), ("response_type", 16), ("dpop_jkt", 128),
    ]
    /// The largest body the PAR, token and revocation endpoints read.
    static let maxBodyBytes = 16 * 1024

    /// `POST /oauth/par` (RFC 9126): validates and stores an authorization request bound to the DPoP key and to
    /// the origin the proof's `htu` names. Our front sends its PAR over loopback but names the browser's origin,
    /// so the sign-in page, the callback's `iss` and the tokens all follow the origin the member actually uses.
    func pushedAuthorization(_ request: Request) -> Response {
        handleOAuth("PAR") {
            let now = clock().unixSeconds
            if let refusal = parAdmission(request, now: now) { return refusal }
            let proof = try authorizationServerProof(request, path: "/oauth/par", now: now)
            let parameters = try OAuthParameters(request: request)
            let pushed = try Self.pushedRequest(
                parameters, jkt: proof.verified.jkt, issuer: proof.origin, clients: clients)
            let requestURI = Self.requestURIPrefix + SecureRandom.token(byteCount: 32)
            let stored = try database.write { connection -> Bool in
                // Expired rows still count until the pruning timer removes them; the cap is on the table's size.
                let pending = try connection.queryOne("SELECT COUNT(*) AS n FROM par_requests")?.int("n") ?? 0
                guard pending < configuration.maxPendingRequests else { return false }
                try connection.execute(
                    """
                    INSERT INTO par_requests (request_uri, client_id, redirect_uri, scope, state, code_challenge,
                        login_hint, jkt, issuer, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        requestURI, pushed.clientID, pushed.redirectURI, pushed.scope, pushed.state,
                        pushed.codeChallenge, pushed.loginHint, pushed.jkt, pushed.issuer, now + Self.requestLifetime,
                    ])
                return true
            }
            guard stored else {
                log.warning("PAR refused: \(configuration.maxPendingRequests) pending requests already stored")
                return Self.unavailable(status: .serviceUnavailable, retryAfter: 60)
            }
            return Self.noStoreJSON(
                PARResponse(request_uri: requestURI, expires_in: Int(Self.requestLifetime)), status: .created)
        }
    }

    /// Nil when this client address may push another request now; else the 429 that says when it may.
    private func parAdmission(_ request: Request, now: Int64) -> Response? {
        if isOwnFront(request) { return nil }
        let key = "par:" + (configuration.clientAddress(request) ?? "unknown")
        let wait = parLimiter.withLock { counts -> Int64? in
            if let wait = counts.wait(for: [key], now: now) { return wait }
            counts.record([key], now: now)
            return nil
        }
        return wait.map { Self.unavailable(status: .tooManyRequests, retryAfter: $0) }
    }

    /// Whether the request carries the key only our own front holds (compared in constant time).
    func isOwnFront(_ request: Request) -> Bool {
        guard let key = configuration.ownFrontKey, let sent = request.headers[Self.frontKeyHeader] else { return false }
        return constantTimeEquals(Array(sent.utf8), Array(key.utf8))
    }

    /// The header our front sends its key in (`SignInServers` writes the same name).
    public static let frontKeyHeader = "Grain-Front"

    /// `temporarily_unavailable` (RFC 6749 §4.1.2.1) with `Retry-After`, for a client that should come back later.
    static func unavailable(status: HTTPStatus, retryAfter: Int64) -> Response {
        var response = Response.json(
            [
                "error": "temporarily_unavailable",
                "error_description": "Too many sign-in requests; try again in \(retryAfter) seconds",
            ], status: status)
        response.headers["Retry-After"] = String(retryAfter)
        return response
    }

    struct PARResponse: Encodable {
        var request_uri: String
        var expires_in: Int
    }

    /// The checks of a pushed request, independent of storage.
    static func pushedRequest(
        _ parameters: OAuthParameters, jkt: String, issuer: String, clients: ClientPolicy
    ) throws(OAuthErrorResponse) -> PendingRequest {
        for (name, limit) in maxParameterLengths {
            guard (parameters[name]?.utf8.count ?? 0) <= limit else {
                throw .invalidRequest("\(name) is longer than \(limit) bytes")
            }
        }
        let clientID = try parameters.require("client_id")
        let redirectURI = try parameters.require("redirect_uri")
        let client = try clients.resolve(clientID: clientID, redirectURI: redirectURI)
        guard let responseType = parameters["response_type"] else { throw .invalidRequest("Missing response_type") }
        guard responseType == "code" else {
            throw OAuthErrorResponse(.unsupportedResponseType, "Only response_type=code is supported")
        }
        // hatk treats a missing method as S256; plain (RFC 7636's default) is refused by the atproto profile.
        guard (parameters["code_challenge_method"] ?? "S256") == "S256" else {
            throw .invalidRequest("code_challenge_method must be S256")
        }
        let challenge = try parameters.require("code_challenge")
        guard challenge.utf8.count == 43, Base64URL.decode(challenge)?.count == 32 else {
            throw .invalidRequest("code_challenge must be a base64url SHA-256 digest")
        }
        let state = try parameters.require("state")
        let scope = parameters["scope"] ?? "atproto"
        let tokens = scope.split(separator: " ", omittingEmptySubsequences: false)
        guard tokens.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(Self.isScopeCharacter) }) else {
            throw OAuthErrorResponse(.invalidScope, "Malformed scope")
        }
        guard tokens.contains("atproto") else { throw OAuthErrorResponse(.invalidScope, "scope must include atproto") }
        // The sign-in page shows no list of permissions, so nothing beyond what Grain's clients ask for can be
        // granted (a `repo:*` would otherwise pass any per-procedure check).
        if let unsupported = tokens.first(where: { !supportedScopes.contains(String($0)) }) {
            throw OAuthErrorResponse(.invalidScope, "Unsupported scope \(unsupported.prefix(100))")
        }
        if let allowed = client.scopes, let undeclared = tokens.first(where: { !allowed.contains(String($0)) }) {
            throw OAuthErrorResponse(.invalidScope, "Scope \(undeclared.prefix(100)) is not declared by this client")
        }
        // RFC 9449 §10: a client may pin the key up front; it must be the key that signed the proof.
        if let pinned = parameters["dpop_jkt"], pinned != jkt {
            throw OAuthErrorResponse.invalidProof("dpop_jkt does not match the DPoP proof key")
        }
        return PendingRequest(
            clientID: clientID, redirectURI: redirectURI, scope: scope, state: state, codeChallenge: challenge,
            loginHint: parameters["login_hint"], jkt: jkt, issuer: issuer)
    }

    /// RFC 6749 §3.3 scope-token characters.
    private static func isScopeCharacter(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
    }
}
