public import ATProto
public import Crypto
import Foundation
public import HTTPServer
import Storage
import Workers

/// The embedded OAuth 2.1 authorization server in hatk's role: PAR + PKCE + DPoP for household accounts,
/// ES256 access tokens bound to the client's DPoP key, rotating refresh tokens. It also checks those tokens on
/// the backend's resource requests (``resourceViewer(for:)``).
///
/// This type only composes: each endpoint is its own type holding what it uses, over small stores of the shared
/// state (pending requests, grants, passwords, DPoP nonces and replays, the sign-in throttle), all built here
/// from one configuration and one clock.
public final class AuthServer: Sendable {
    /// `atproto` plus every scope in Grain's production scope string (grain-api.md §7.7), and `blob:video/mp4`, which
    /// the household's own front asks for to post clips (Grain grants images only).
    public static let supportedScopes: [String] = [
        "atproto", "transition:generic", "blob:image/*", "blob:video/mp4",
        "repo:social.grain.gallery", "repo:social.grain.gallery.item", "repo:social.grain.photo",
        "repo:social.grain.photo.exif", "repo:social.grain.actor.profile", "repo:social.grain.graph.follow",
        "repo:social.grain.favorite", "repo:social.grain.comment", "repo:social.grain.story",
        "repo:social.grain.graph.block", "repo:app.bsky.feed.post?action=create",
    ]

    /// The header our front sends its key in (`SignInServers` writes the same name).
    public static let frontKeyHeader = "Grain-Front"

    /// For the administration and maintenance calls that span the tables (checkpoint, pruning).
    let database: Database
    let clock: @Sendable () -> UTCTime
    let nonces: DPoPNonces
    let passwords: PasswordStore
    let grants: GrantStore
    let resources: ResourceChecks
    let endpoints: Endpoints

    /// The route handlers, each holding only what its job uses.
    struct Endpoints: Sendable {
        var metadata: MetadataEndpoint
        var par: PAREndpoint
        var authorize: AuthorizeEndpoint
        var signIn: SignInEndpoint
        var token: TokenEndpoint
        var revoke: RevokeEndpoint
    }

    /// Opens (creating) `<dataDirectory>/auth.sqlite`. The ES256 token-signing key is generated once and stored
    /// sealed with `sealingKey` (AES-256-GCM); password hashes (scrypt) live in the same file.
    /// - Parameters:
    ///   - dataDirectory: Where `auth.sqlite` lives; created when missing.
    ///   - configuration: Origins, clients, lifetimes and limits.
    ///   - accounts: The household accounts (who may sign in, and their handles).
    ///   - sealingKey: Encrypts the signing key and the HMAC secret at rest.
    ///   - clock: The current time; tests advance it instead of sleeping. Every part of the server reads this one.
    ///   - renderSignIn: Turns the sign-in page model into HTML with the app's templates.
    public init(
        dataDirectory: String, configuration: AuthServerConfiguration, accounts: any AccountDirectory, sealingKey: SealingKey,
        clock: @escaping @Sendable () -> UTCTime = { .now },
        renderSignIn: @escaping @Sendable (SignInPage) -> Response
    ) throws {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let database = try Database(path: dataDirectory + "/auth.sqlite")
        try database.migrate(AuthSchema.migrations)
        let secrets = SealedSecrets(database: database, sealingKey: sealingKey)
        let signer = try TokenSigner(rawKey: try secrets.secret("token-signing-key") { P256PrivateKey().rawRepresentation })
        // Stored under its first use's name; it also keys the device cookies.
        let macSecret = try secrets.secret("csrf-secret") { SecureRandom.bytes(32) }
        let origins = OwnOrigins(isOwn: configuration.isOwnOrigin, requestOrigin: configuration.requestOrigin)
        let clients = ClientPolicy(registered: configuration.registeredClients, isOwnOrigin: configuration.isOwnOrigin)
        let nonces = DPoPNonces(required: configuration.requireDPoPNonce, clock: clock)
        let proofs = ProofChecker(
            isOwnOrigin: configuration.isOwnOrigin, nonces: nonces, spent: SpentProofs(database: database))
        let pending = PendingRequests(database: database, capacity: configuration.maxPendingRequests)
        let grants = GrantStore(
            database: database, signer: signer, accessTokenLifetime: configuration.accessTokenLifetime.wholeSeconds,
            refreshTokenLifetime: configuration.refreshTokenLifetime.wholeSeconds)
        let passwords = PasswordStore(
            database: database, accounts: accounts, parameters: configuration.passwordParameters,
            work: WorkerPool(
                label: "passwords", workers: configuration.passwordWorkers, queueLimit: configuration.passwordQueueLimit),
            clock: clock)
        let pages = SignInPages(render: renderSignIn, clients: clients, macSecret: macSecret)
        let cookies = DeviceCookies(secret: macSecret, lifetime: configuration.signInLimits.deviceLifetime.wholeSeconds)
        let limiter = SignInLimiter(
            limits: configuration.signInLimits, clientAddress: configuration.clientAddress, cookies: cookies)
        self.database = database
        self.clock = clock
        self.nonces = nonces
        self.passwords = passwords
        self.grants = grants
        resources = ResourceChecks(
            signer: signer, proofs: proofs, grants: grants, accounts: accounts, origins: origins, clock: clock)
        endpoints = Endpoints(
            metadata: MetadataEndpoint(origins: origins, signer: signer),
            par: PAREndpoint(
                proofs: proofs, pending: pending, clients: clients, configuration: configuration, clock: clock),
            authorize: AuthorizeEndpoint(pending: pending, pages: pages, passwords: passwords, clock: clock),
            signIn: SignInEndpoint(
                pending: pending, pages: pages, passwords: passwords, limiter: limiter, cookies: cookies, origins: origins,
                clock: clock),
            token: TokenEndpoint(proofs: proofs, grants: grants, accounts: accounts, clock: clock),
            revoke: RevokeEndpoint(proofs: proofs, grants: grants, clock: clock))
    }
}
