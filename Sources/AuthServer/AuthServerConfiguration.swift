public import Crypto
public import HTTPServer
import WebAddresses

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
///
/// The server has no issuer of its own. One household reaches it under several origins (`http://192.168.1.20:8080`,
/// `http://box.local:8080`, `http://localhost:8080`, or only `https://stories.example` behind a TLS proxy), so each
/// answer takes its issuer from the origin the request was sent to (``requestOrigin``), and each authorization flow
/// keeps the origin its PAR proof named. ``isOwnOrigin`` decides what counts as ours; the HTTP layer owns that
/// policy, this server only asks it.
///
/// Origins are passed in one serialized form: `scheme://host[:port]`, scheme and host lower case, the port only
/// when it is not the scheme's default, an IPv6 host in brackets (`http://192.168.1.20:8080`,
/// `https://stories.example`, `http://[fd00::2]:8080`).
public struct AuthServerConfiguration: Sendable {
    /// Whether a serialized origin is one this server is served on.
    public var isOwnOrigin: @Sendable (String) -> Bool
    /// The validated origin a request was sent to (its `Host`, or behind a trusted proxy the forwarded host and
    /// scheme), serialized; nil when the request names a host that is not ours.
    public var requestOrigin: @Sendable (Request) -> String?
    /// Clients accepted besides our own front and loopback clients (hatk's `oauth.clients` allowlist).
    public var registeredClients: [RegisteredClient]
    /// hatk issues no DPoP nonces; on, the server behaves like an atproto-profile server: a `DPoP-Nonce` header on
    /// every answer, `use_dpop_nonce` errors for proofs without a current nonce, rotation every few minutes.
    public var requireDPoPNonce: Bool = false
    /// How long an access token is valid (hatk: one hour).
    public var accessTokenLifetime: Duration = .seconds(3600)
    /// How long each refresh token is valid from its issue (hatk: 14 days, renewed at every rotation).
    public var refreshTokenLifetime: Duration = .seconds(14 * 86400)
    /// The scrypt cost of new password hashes (N=2^17, r=8, p=1); tests use the fast parameters. A stored hash
    /// weaker than this is redone at the account's next successful sign-in.
    public var passwordParameters: PasswordHash.Parameters = .standard
    /// Password hashes computed at once, each on a thread of its own, never on Swift's shared pool.
    public var passwordWorkers: Int = 1
    /// Sign-ins allowed to wait for a hashing thread; past it a sign-in gets 503 with Retry-After.
    public var passwordQueueLimit: Int = 8
    /// How failed sign-ins slow further attempts down (see ``SignInLimits``).
    public var signInLimits = SignInLimits()
    /// The address per-client limits count against: the socket peer directly on the network, the proxy's record
    /// of the client behind a trusted proxy (the HTTP layer's policy; by default the peer).
    public var clientAddress: @Sendable (Request) -> String? = { $0.remoteAddress }
    /// Pushed authorization requests accepted per client address and minute. Our own front's are not counted here
    /// (see `ownFrontKey`): it pushes for every browser over loopback, so they would all count as one address.
    public var parRequestsPerMinute: Int = 30
    /// A secret the composition root gives this server and its own front alone: a PAR carrying it in `Grain-Front` is
    /// the front's, which limits sign-ins per browser address itself, and is not counted against loopback. Without it
    /// anyone could lock the whole household out of signing in by starting 31 sign-ins a minute (issue 25, N2).
    public var ownFrontKey: String?
    /// Live pushed requests kept at most; past it PAR answers 503 until the pruning timer has made room, so a
    /// flood cannot grow auth.sqlite without bound.
    public var maxPendingRequests: Int = 10_000

    /// - Parameters:
    ///   - isOwnOrigin: Whether a serialized origin is ours.
    ///   - requestOrigin: The validated, serialized origin a request was sent to.
    ///   - registeredClients: Clients accepted besides our own front and loopback clients.
    public init(
        isOwnOrigin: @escaping @Sendable (String) -> Bool, requestOrigin: @escaping @Sendable (Request) -> String?,
        registeredClients: [RegisteredClient] = []
    ) {
        self.isOwnOrigin = isOwnOrigin
        self.requestOrigin = requestOrigin
        self.registeredClients = registeredClients
    }

    /// A server with exactly one origin, which every request counts as sent to.
    /// - Parameters:
    ///   - origin: The origin, e.g. `https://stories.example`; a trailing slash or path is ignored, and a string
    ///     that is not an http(s) URL matches nothing (every metadata request then gets 421).
    ///   - registeredClients: Clients accepted besides our own front and loopback clients.
    public init(origin: String, registeredClients: [RegisteredClient] = []) {
        let serialized = Origin(origin)?.description
        self.init(
            isOwnOrigin: { $0 == serialized }, requestOrigin: { _ in serialized }, registeredClients: registeredClients)
    }
}

/// How failed sign-ins slow further attempts down: a few free failures per key, then waits that double with each
/// further failure, counted per account, per client address, and per device that signed in before (whose own
/// attempts are exempt from the account and address counts, so a member is never locked out of a browser they
/// use). The design is written out at `SignInThrottle`.
public struct SignInLimits: Sendable, Equatable {
    /// Failures on one account (its handle, short name and DID together) before attempts must wait.
    public var accountFreeFailures: Int = 5
    /// Failures from one client address, whichever accounts they name, before attempts must wait.
    public var addressFreeFailures: Int = 20
    /// Failures from one browser on an account it signed in to before.
    public var deviceFreeFailures: Int = 5
    /// The first wait past the free failures; each further failure doubles it.
    public var firstDelay: Duration = .seconds(2)
    /// The longest wait between two attempts.
    public var maxDelay: Duration = .seconds(15 * 60)
    /// Failures are forgotten this long after the last one.
    public var forgetAfter: Duration = .seconds(3600)
    /// How long a browser's device cookie vouches for it; renewed at each sign-in.
    public var deviceLifetime: Duration = .seconds(365 * 86400)

    public init() {}
}

extension Duration {
    /// Whole seconds, for token lifetimes and `Retry-After`.
    var wholeSeconds: Int64 { components.seconds }
}
