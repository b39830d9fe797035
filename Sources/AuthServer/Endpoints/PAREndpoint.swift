import ATProto
import Crypto
import HTTPServer
import Logging
import RateLimits
import Synchronization

/// `POST /oauth/par` (RFC 9126): validates and stores an authorization request bound to the DPoP key and to the
/// origin the proof's `htu` names. Our front sends its PAR over loopback but names the browser's origin, so the
/// sign-in page, the callback's `iss` and the tokens all follow the origin the member actually uses.
final class PAREndpoint: Sendable {
    /// Longest accepted value of each stored parameter, in bytes: room for every real client (Grain's whole scope
    /// list is about 350 bytes, a localhost client_id declaring it about 600), small for the database.
    static let maxParameterLengths: [(name: String, bytes: Int)] = [
        ("client_id", 1024), ("redirect_uri", 512), ("scope", 1024), ("state", 256), ("login_hint", 256),
        ("code_challenge", 128), ("code_challenge_method", 16), ("response_type", 16), ("dpop_jkt", 128),
    ]

    let proofs: ProofChecker
    let pending: PendingRequests
    let clients: ClientPolicy
    let clientAddress: @Sendable (Request) -> String?
    /// The key only our own front sends (``AuthServerConfiguration/ownFrontKey``).
    let ownFrontKey: String?
    let clock: @Sendable () -> UTCTime
    /// Pushed requests per client address and minute.
    private let limiter: Mutex<WindowCounts>

    init(
        proofs: ProofChecker, pending: PendingRequests, clients: ClientPolicy, configuration: AuthServerConfiguration,
        clock: @escaping @Sendable () -> UTCTime
    ) {
        self.proofs = proofs
        self.pending = pending
        self.clients = clients
        clientAddress = configuration.clientAddress
        ownFrontKey = configuration.ownFrontKey
        self.clock = clock
        limiter = Mutex(WindowCounts(limit: configuration.parRequestsPerMinute, window: 60))
    }

    struct PARResponse: Encodable {
        var request_uri: String
        var expires_in: Int
    }

    func respond(to request: Request) -> Response {
        OAuthResponses.handle("PAR") {
            let now = clock().unixSeconds
            if let refusal = admission(request, now: now) { return refusal }
            let proof = try proofs.authorizationServerProof(request, path: "/oauth/par", now: now)
            let parameters = try OAuthParameters(request: request)
            let pushed = try Self.pushedRequest(
                parameters, jkt: proof.verified.jkt, issuer: proof.origin, clients: clients)
            guard let requestURI = try pending.add(pushed, now: now) else {
                log.warning("PAR refused: \(pending.capacity) pending requests already stored")
                return OAuthResponses.unavailable(status: .serviceUnavailable, retryAfter: 60)
            }
            return OAuthResponses.noStoreJSON(
                PARResponse(request_uri: requestURI, expires_in: Int(PendingRequests.lifetime)), status: .created)
        }
    }

    /// Nil when this client address may push another request now; else the 429 that says when it may.
    private func admission(_ request: Request, now: Int64) -> Response? {
        if isOwnFront(request) { return nil }
        let key = "par:" + (clientAddress(request) ?? "unknown")
        let wait = limiter.withLock { counts -> Int64? in
            if let wait = counts.wait(for: [key], now: now) { return wait }
            counts.record([key], now: now)
            return nil
        }
        return wait.map { OAuthResponses.unavailable(status: .tooManyRequests, retryAfter: $0) }
    }

    /// Whether the request carries the key only our own front holds (compared in constant time).
    private func isOwnFront(_ request: Request) -> Bool {
        guard let key = ownFrontKey, let sent = request.headers[AuthServer.frontKeyHeader] else { return false }
        return constantTimeEquals(Array(sent.utf8), Array(key.utf8))
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
        if let unsupported = tokens.first(where: { !AuthServer.supportedScopes.contains(String($0)) }) {
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
