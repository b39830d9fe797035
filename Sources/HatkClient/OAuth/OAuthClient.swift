public import ATProto
import Crypto
public import Foundation
public import Outbound
import Synchronization

/// A public OAuth 2.1 client of a hatk server (or any atproto authorization server) running on our
/// server for each browser session: PAR with PKCE S256, a per-session ES256 DPoP key, code exchange,
/// refresh with rotation, revocation. Works with servers that issue DPoP nonces and with hatk, which doesn't.
public final class OAuthClient: Sendable {
    public let clientID: String
    public let redirectURI: String
    public let scope: String
    public let issuer: URL
    /// Where requests to the issuer's own origin are sent when that differs from the issuer (the embedded server,
    /// reached over loopback while proofs and redirects name the origin the browser uses); nil sends them as named.
    public let transport: URL?
    let nonces: ReceivedNonces
    /// Sent with every form POST to the authorization server (PAR, token, revocation): our front's key to its own server.
    let headers: [String: String]
    let clock: @Sendable () -> UTCTime
    private let http: OutboundHTTP
    private let timeout: Duration
    private let cachedMetadata = Mutex<AuthorizationServerMetadata?>(nil)

    /// Refresh and access tokens never count as valid for longer than this, whatever `expires_in` says: a
    /// server answering a huge number must not overflow our arithmetic or keep a token alive for ever.
    static let longestTokenLifetime: Int64 = 86_400

    /// Grain's full scope string: asking for less would shrink the grant hatk shares with Grain's other clients.
    public static let grainScope =
        "atproto blob:image/* repo:social.grain.gallery repo:social.grain.gallery.item repo:social.grain.photo repo:social.grain.photo.exif repo:social.grain.actor.profile repo:social.grain.graph.follow repo:social.grain.favorite repo:social.grain.comment repo:social.grain.story repo:social.grain.graph.block repo:app.bsky.feed.post?action=create"

    /// Grain's scope and clips: what the front asks of the household's own authorization server, whose backend stores
    /// clips. Never asked of Grain, which grants images only.
    public static let householdScope = grainScope + " blob:video/mp4"

    /// - Parameter policy: which addresses the client may connect to: the issuer, and the endpoints its metadata
    ///   names. Public ones only by default; a loopback or LAN issuer needs its origin in the allowance.
    ///   `transport` and `metadata` are for a server we run ourselves: its address, and its metadata, which then
    ///   needs no fetch.
    public init(
        clientID: String, redirectURI: String, issuer: URL, scope: String = OAuthClient.grainScope,
        transport: URL? = nil, metadata: AuthorizationServerMetadata? = nil,
        nonces: ReceivedNonces = ReceivedNonces(), timeout: TimeInterval = 10,
        clock: @escaping @Sendable () -> UTCTime = { .now },
        policy: AddressPolicy = .publicOnly, headers: [String: String] = [:]
    ) {
        self.headers = headers
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.issuer = issuer
        self.transport = transport
        cachedMetadata.withLock { $0 = metadata }
        self.scope = scope
        self.nonces = nonces
        self.clock = clock
        self.timeout = .seconds(timeout)
        var configuration = OutboundHTTP.Configuration(policy: policy)
        // Metadata and token answers are small; the reference clients cap them at 512 KB.
        configuration.maximumBodySize = 512 * 1024
        // The embedded server is reached on our own listener: no connection to ourselves stays open after a sign-in.
        configuration.keepsConnectionsOpen = transport == nil
        http = OutboundHTTP(configuration: configuration)
    }

    /// The server's metadata, fetched once; its `issuer` must be the one we were configured with.
    public func metadata() async throws(OAuthError) -> AuthorizationServerMetadata {
        if let cached = cachedMetadata.withLock({ $0 }) { return cached }
        let url = issuer.appendingPathComponent(".well-known/oauth-authorization-server")
        let (data, status) = try await send(OutboundRequest(url: transported(url), timeout: timeout), nonceFor: url)
        guard status == 200, let metadata = try? JSONDecoder().decode(AuthorizationServerMetadata.self, from: data) else {
            throw OAuthError(code: "server_error", detail: "the authorization server's metadata could not be read", status: status)
        }
        guard Self.sameIssuer(metadata.issuer, issuer.absoluteString) else {
            throw OAuthError(code: "server_error", detail: "the metadata names issuer \(metadata.issuer), not \(issuer)")
        }
        // Only metadata whose endpoints are usable URLs is kept: a broken document is refused now and fetched again
        // next time, instead of failing every later sign-in.
        for endpoint in [metadata.authorizationEndpoint, metadata.tokenEndpoint] + [metadata.pushedAuthorizationRequestEndpoint].compactMap({ $0 })
        where Self.httpURL(endpoint) == nil {
            throw OAuthError(code: "server_error", detail: "the metadata names an endpoint that is not an http(s) URL")
        }
        cachedMetadata.withLock { $0 = metadata }
        return metadata
    }

    /// Pushes an authorization request and returns where to send the browser, plus what to keep for the callback.
    public func beginSignIn(loginHint: String?) async throws(OAuthError) -> (authorizeURL: URL, pending: PendingAuthorization) {
        let metadata = try await metadata()
        guard let parEndpoint = metadata.pushedAuthorizationRequestEndpoint.flatMap(Self.httpURL) else {
            throw OAuthError(code: "server_error", detail: "the server does not offer pushed authorization requests")
        }
        let key = P256PrivateKey()
        let verifier = PKCE.makeVerifier()
        let state = SecureRandom.token(byteCount: 24)
        var form: [(String, String)] = [
            ("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", "code"),
            ("code_challenge", PKCE.challenge(for: verifier)), ("code_challenge_method", "S256"),
            ("state", state), ("scope", scope),
        ]
        if let loginHint, !loginHint.isEmpty { form.append(("login_hint", loginHint)) }
        let (data, status) = try await postForm(parEndpoint, form, key: key)
        struct PARResponse: Decodable { var request_uri: String }
        guard (200..<300).contains(status), let par = try? JSONDecoder().decode(PARResponse.self, from: data) else {
            throw Self.error(from: data, status: status)
        }
        guard let endpoint = Self.httpURL(metadata.authorizationEndpoint),
            var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        else { throw OAuthError(code: "server_error", detail: "the authorization endpoint is not an http(s) URL") }
        components.queryItems = [URLQueryItem(name: "request_uri", value: par.request_uri), URLQueryItem(name: "client_id", value: clientID)]
        guard let authorizeURL = components.url else {
            throw OAuthError(code: "server_error", detail: "the authorization URL could not be built")
        }
        let pending = PendingAuthorization(
            state: state, codeVerifier: verifier, dpopKey: key.rawRepresentation, issuer: metadata.issuer, createdAt: clock().unixSeconds)
        return (authorizeURL, pending)
    }

    /// Exchanges the code from the callback; checks `iss` against the server we started with.
    public func completeSignIn(
        pending: PendingAuthorization, code: String, issuer returnedIssuer: String?
    ) async throws(OAuthError)
        -> TokenSet
    {
        guard clock().unixSeconds - pending.createdAt <= 600 else {
            throw OAuthError(code: "expired", detail: "the sign-in took too long; start again")
        }
        guard let returnedIssuer, Self.sameIssuer(returnedIssuer, pending.issuer) else {
            throw OAuthError(code: "invalid_issuer", detail: "the callback came from an unexpected issuer")
        }
        let key = try Self.key(pending.dpopKey)
        return try await tokenRequest(
            [
                ("grant_type", "authorization_code"), ("code", code), ("client_id", clientID),
                ("redirect_uri", redirectURI), ("code_verifier", pending.codeVerifier),
            ], key: key)
    }

    /// Trades the refresh token for new tokens (the server rotates the refresh token).
    public func refresh(_ tokens: TokenSet, dpopKey: [UInt8]) async throws(OAuthError) -> TokenSet {
        guard let refreshToken = tokens.refreshToken else {
            throw OAuthError(code: "invalid_grant", detail: "the session has no refresh token")
        }
        var refreshed = try await tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID)],
            key: try Self.key(dpopKey))
        guard refreshed.subject == tokens.subject else {
            throw OAuthError(code: "invalid_grant", detail: "the refreshed token names another account")
        }
        if refreshed.handle == nil { refreshed.handle = tokens.handle }
        return refreshed
    }

    /// Revokes a token where the server offers revocation; failures are ignored (we forget the tokens anyway).
    public func revoke(_ token: String, dpopKey: [UInt8]) async {
        guard let metadata = try? await metadata(), let endpoint = metadata.revocationEndpoint.flatMap(Self.httpURL),
            let key = try? Self.key(dpopKey)
        else { return }
        _ = try? await postForm(endpoint, [("token", token), ("client_id", clientID)], key: key)
    }

    func tokenRequest(_ form: [(String, String)], key: P256PrivateKey) async throws(OAuthError) -> TokenSet {
        let metadata = try await metadata()
        guard let endpoint = Self.httpURL(metadata.tokenEndpoint) else {
            throw OAuthError(code: "server_error", detail: "bad token endpoint")
        }
        let (data, status) = try await postForm(endpoint, form, key: key)
        guard status == 200, let response = try? JSONDecoder().decode(TokenResponse.self, from: data) else {
            throw Self.error(from: data, status: status)
        }
        guard response.tokenType.lowercased() == "dpop" else {
            throw OAuthError(code: "server_error", detail: "the server issued a \(response.tokenType) token, not a DPoP-bound one")
        }
        guard let sub = response.sub, DID.isValid(sub) else {
            throw OAuthError(code: "server_error", detail: "the token response names no valid account (sub)")
        }
        let lifetime = min(max(response.expiresIn ?? 3600, 0), Self.longestTokenLifetime)
        return TokenSet(
            accessToken: response.accessToken, refreshToken: response.refreshToken,
            expiresAt: clock().unixSeconds + lifetime, subject: sub, scope: response.scope, handle: response.handle)
    }

    /// POSTs a form with a DPoP proof, retrying once with the server's nonce when it asks for one.
    func postForm(_ url: URL, _ form: [(String, String)], key: P256PrivateKey) async throws(OAuthError) -> (Data, Int) {
        var request = OutboundRequest(
            method: "POST", url: transported(url),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: .bytes(Data(Self.formEncode(form).utf8)), timeout: timeout)
        for (name, value) in headers { request.headers[name] = value }
        for attempt in 0..<2 {
            do {
                request.headers["DPoP"] = try DPoP.proof(
                    key: key, method: "POST", url: url.absoluteString, now: clock().unixSeconds, nonce: nonces.nonce(for: url))
            } catch {
                throw OAuthError(code: "client_error", detail: "could not sign a DPoP proof: \(error)")
            }
            let (data, status) = try await send(request, nonceFor: url)
            if attempt == 0, status == 400 || status == 401,
                (try? JSONDecoder().decode(OAuthErrorBody.self, from: data))?.error == "use_dpop_nonce"
            {
                continue
            }
            return (data, status)
        }
        throw OAuthError(code: "use_dpop_nonce", detail: "the server kept refusing our DPoP nonce")
    }

    func send(_ request: OutboundRequest, nonceFor url: URL? = nil) async throws(OAuthError) -> (Data, Int) {
        do {
            let response = try await http.send(request)
            nonces.update(for: url ?? request.url, nonce: response.headers["DPoP-Nonce"])
            return (response.body, response.status)
        } catch {
            throw OAuthError(code: "unreachable", detail: "the authorization server could not be reached (\(error))")
        }
    }

    static func error(from data: Data, status: Int) -> OAuthError {
        if let body = try? JSONDecoder().decode(OAuthErrorBody.self, from: data) {
            return OAuthError(code: body.error, detail: body.errorDescription ?? "", status: status)
        }
        // hatk answers some failures with {"error": "<message>"} and status 500.
        return OAuthError(code: "server_error", detail: "the authorization server answered \(status)", status: status)
    }

    static func key(_ raw: [UInt8]) throws(OAuthError) -> P256PrivateKey {
        do { return try P256PrivateKey(rawRepresentation: raw) } catch {
            throw OAuthError(code: "client_error", detail: "the session's DPoP key is unreadable")
        }
    }

    /// `url` sent to `transport` instead when it is on the issuer's origin: same path and query, other address.
    func transported(_ url: URL) -> URL {
        guard let transport, ReceivedNonces.origin(url) == ReceivedNonces.origin(issuer),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.scheme = transport.scheme
        components.host = transport.host
        components.port = transport.port
        return components.url ?? url
    }

    /// An absolute http(s) URL with a host, or nil: every URL a server's metadata names is checked this way.
    static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    static func sameIssuer(_ a: String, _ b: String) -> Bool {
        func normal(_ s: String) -> String { (s.hasSuffix("/") ? String(s.dropLast()) : s).lowercased() }
        return normal(a) == normal(b)
    }

    static func formEncode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        // Percent-encoding a Swift String cannot fail (every String is valid Unicode); "" is only a formality.
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }
}
