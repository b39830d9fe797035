public import ATProto
public import Crypto
import Foundation
public import HTTPServer
import RateLimits
import Storage
import Synchronization
import WebAddresses
import Workers

/// The embedded OAuth 2.1 authorization server in hatk's role: PAR + PKCE + DPoP for household accounts,
/// ES256 access tokens bound to the client's DPoP key, rotating refresh tokens. It also checks those tokens on
/// the backend's resource requests (``resourceViewer(for:)``).
public final class AuthServer: Sendable {
    let database: Database
    let accounts: any AccountDirectory
    let configuration: AuthServerConfiguration
    let clients: ClientPolicy
    let signingKey: P256PrivateKey
    /// The `kid` of the signing key in tokens and the JWKS: its thumbprint, so a future key gets a new one.
    let keyID: String
    /// The HMAC key of CSRF tokens and device cookies (stored under its first use's name, `csrf-secret`).
    let macSecret: [UInt8]
    let clock: @Sendable () -> UTCTime
    let renderSignIn: @Sendable (SignInPage) -> Response
    /// Nil unless nonces are required (hatk issues none).
    let nonces: Mutex<IssuedNonces?>
    let throttle: Mutex<SignInThrottle>
    /// Pushed requests per client address and minute.
    let parLimiter: Mutex<WindowCounts>
    /// A hash checked when the username is unknown, so that a miss costs as much as a wrong password.
    let decoyHash = Mutex<String?>(nil)
    /// Where every password hash of a sign-in is computed.
    /// Password hashing, off the shared pool.
    let passwordWork: WorkerPool

    /// Opens (creating) `<dataDirectory>/auth.sqlite`. The ES256 token-signing key is generated once and stored
    /// sealed with `sealingKey` (AES-256-GCM); password hashes (scrypt) live in the same file.
    /// - Parameters:
    ///   - dataDirectory: Where `auth.sqlite` lives; created when missing.
    ///   - configuration: Origins, clients, lifetimes and limits.
    ///   - accounts: The household accounts (who may sign in, and their handles).
    ///   - sealingKey: Encrypts the signing key and the HMAC secret at rest.
    ///   - clock: The current time; tests advance it instead of sleeping.
    ///   - renderSignIn: Turns the sign-in page model into HTML with the app's templates.
    public init(
        dataDirectory: String, configuration: AuthServerConfiguration, accounts: any AccountDirectory, sealingKey: SealingKey,
        clock: @escaping @Sendable () -> UTCTime = { .now },
        renderSignIn: @escaping @Sendable (SignInPage) -> Response
    ) throws {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        database = try Database(path: dataDirectory + "/auth.sqlite")
        try database.migrate(AuthSchema.migrations)
        let keyBytes = try Self.secret("token-signing-key", in: database, sealingKey: sealingKey) {
            P256PrivateKey().rawRepresentation
        }
        signingKey = try P256PrivateKey(rawRepresentation: keyBytes)
        keyID = signingKey.publicKey.jwk.thumbprint
        macSecret = try Self.secret("csrf-secret", in: database, sealingKey: sealingKey) { SecureRandom.bytes(32) }
        self.accounts = accounts
        self.configuration = configuration
        self.clients = ClientPolicy(registered: configuration.registeredClients, isOwnOrigin: configuration.isOwnOrigin)
        self.clock = clock
        self.renderSignIn = renderSignIn
        let now = clock().unixSeconds
        nonces = Mutex(configuration.requireDPoPNonce ? IssuedNonces(now: now, make: Self.makeNonce) : nil)
        throttle = Mutex(SignInThrottle(forgetAfter: configuration.signInLimits.forgetAfter.wholeSeconds))
        parLimiter = Mutex(WindowCounts(limit: configuration.parRequestsPerMinute, window: 60))
        passwordWork = WorkerPool(label: "passwords", workers: configuration.passwordWorkers, queueLimit: configuration.passwordQueueLimit)
    }

    /// The serialized origin of `url` when it is one of ours, else nil.
    func ownOrigin(_ url: String) -> String? {
        guard let origin = Origin(url)?.description, configuration.isOwnOrigin(origin) else { return nil }
        return origin
    }

    /// The issuer a request sees: the validated origin it was sent to, when that is one of ours.
    func issuer(of request: Request) -> String? {
        configuration.requestOrigin(request).flatMap(ownOrigin)
    }

    /// Adds the OAuth endpoints: the two metadata documents, JWKS, PAR, authorize (GET and POST), token and
    /// revocation, with CORS preflight answers for the endpoints clients call from scripts.
    public func register(on router: inout Router) {
        // Errors the router raises itself (unknown path, body too large) in the OAuth error shape.
        let oauthErrors: ErrorResponder = { [self] error, _ in
            let code = error.status == .payloadTooLarge || error.status == .notFound ? "invalid_request" : "server_error"
            let message = error.message.isEmpty ? error.status.reasonPhrase : error.message
            return finish(Response.json(["error": code, "error_description": message], status: error.status))
        }
        router.group("/.well-known") { wellKnown in
            wellKnown.errorResponder = oauthErrors
            wellKnown.on(.get, "/.well-known/oauth-authorization-server") { [self] request in metadataResponse(request) }
            wellKnown.on(.get, "/.well-known/oauth-protected-resource") { [self] request in protectedResourceResponse(request) }
            for path in ["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource"] {
                wellKnown.on(.options, path) { [self] _ in finish(Response(status: .ok)) }
            }
        }
        router.group("/oauth") { oauth in
            oauth.errorResponder = oauthErrors
            oauth.on(.get, "/oauth/jwks") { [self] _ in jwksResponse() }
            let limit = Self.maxBodyBytes
            oauth.on(.post, "/oauth/par", bodyLimit: limit) { [self] request in finish(pushedAuthorization(request)) }
            oauth.on(.get, "/oauth/authorize") { [self] request in authorizePage(request) }
            oauth.on(.post, "/oauth/authorize", bodyLimit: limit) { [self] request in await signIn(request) }
            oauth.on(.post, "/oauth/token", bodyLimit: limit) { [self] request in finish(token(request)) }
            oauth.on(.post, "/oauth/revoke", bodyLimit: limit) { [self] request in finish(revoke(request)) }
            for path in ["/oauth/jwks", "/oauth/par", "/oauth/token", "/oauth/revoke"] {
                oauth.on(.options, path) { [self] _ in finish(Response(status: .ok)) }
            }
        }
    }

    static func makeNonce() -> String { SecureRandom.token(byteCount: 16) }

    /// Reads a sealed secret, creating and storing it on first use.
    private static func secret(
        _ name: String, in database: Database, sealingKey: SealingKey, create: () -> [UInt8]
    ) throws -> [UInt8] {
        let context = "grain-stories auth.sqlite " + name
        return try database.write { connection in
            if let sealed = try connection.queryOne("SELECT sealed FROM secrets WHERE name = ?", [name])?.bytes("sealed") {
                do {
                    return try sealingKey.open(sealed, context: context)
                } catch {
                    throw AuthServerError("cannot open the stored \(name): wrong sealing key or damaged auth.sqlite")
                }
            }
            let value = create()
            try connection.execute(
                "INSERT INTO secrets (name, sealed) VALUES (?, ?)", [name, try sealingKey.seal(value, context: context)])
            return value
        }
    }
}
