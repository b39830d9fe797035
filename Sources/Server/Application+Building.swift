import ATProto
import App
import AuthServer
import Backend
import Clocks
import Crypto
import Foundation
import FrontState
import HTMLRendering
import HTTPServer
import HatkClient
import Imaging
import Logging
import Metrics
import Outbound
import Publishing
import Video
import WebAddresses
import Workers

/// The steps `Application.init` builds the server in, each taking what it needs and returning what it made.
extension Application {
    /// How this process talks to its upstream: the writer every write (and a remote hatk's reads) goes through, and
    /// the rules its fetches follow.
    struct Connections {
        var writer: HatkClient
        var policy: AddressPolicy
        var nonces: ReceivedNonces
    }

    /// Who answers the front's reads and sign-ins: the embedded backend with its authorization server, or a
    /// remote hatk.
    struct Upstream {
        var backend: EmbeddedBackend?
        var authServer: AuthServer?
        var household: (any HouseholdDirectory)?
        var moderation: (any Moderation)?
        var stories: any StorySource
        var signIn: SignInServers.Server
    }

    /// Before any database is opened (and migrated): upload bodies a killed server left are removed, a newer schema
    /// stops here untouched and an older one is backed up; then the nightly backups are set up.
    static func prepareData(
        _ configuration: ServeConfiguration, clock: @escaping @Sendable () -> UTCTime
    ) throws -> (SchemaUpgrade.Outcome, NightlyBackups?) {
        // Upload bodies stream to <data>/uploads; one a killed server left behind is removed before anything listens.
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory + "/uploads", withIntermediateDirectories: true)
        if !configuration.forCommand { _ = TemporaryBodies.sweep(directory: configuration.dataDirectory + "/uploads") }
        let upgrade = try SchemaUpgrade.prepare(
            dataDirectory: configuration.dataDirectory, backupDirectory: configuration.backupDirectory, now: clock().date)
        let nightly = configuration.backupDirectory.map {
            NightlyBackups(
                directory: $0, keep: configuration.backupKeep, schedule: configuration.backupSchedule,
                dataDirectory: configuration.dataDirectory, now: clock().date)
        }
        return (upgrade, nightly)
    }

    /// The templates in their layout and the static files, with the content policy the deployment needs.
    static func pages(_ configuration: ServeConfiguration) throws -> (PageRenderer, StaticFiles) {
        let templates = try TemplateRenderer(directory: configuration.templatesDirectory, reloadOnChange: configuration.development)
        let assets = try StaticFiles(root: configuration.publicDirectory, watch: configuration.development)
        var contentSources = ContentPolicy.Sources()
        if let appview = configuration.appview, let origin = Self.origin(of: appview) {
            // Chromium applies form-action to the redirect after the sign-in form's POST: exactly this server, no wider.
            contentSources.formActions = [origin]
            if appview.scheme == "http" { contentSources.images.append(origin) }
        }
        // The sign-in page's form is answered with a redirect to a registered client's callback, which Chromium checks
        // against form-action too: exactly those origins.
        for client in configuration.registeredClients {
            for uri in client.redirectURIs {
                if let url = URL(string: uri), let origin = Self.origin(of: url), !contentSources.formActions.contains(origin) {
                    contentSources.formActions.append(origin)
                }
            }
        }
        return (PageRenderer(templates: templates, assets: assets, policy: contentSources), assets)
    }

    /// The writer and the fetch rules: only the configured upstream (or our own listener) may be on loopback or the
    /// LAN; every other address an OAuth document or anything else names must be public.
    static func upstreamConnections(
        _ configuration: ServeConfiguration, loopback: URL, metrics: Metrics, clock: @escaping @Sendable () -> UTCTime,
        monotonic: MonotonicClock
    ) -> Connections {
        let nonces = ReceivedNonces()
        let upstream = configuration.appview ?? loopback
        let policy = AddressPolicy.publicOnly.allowing([upstream])
        let writer = HatkClient(
            baseURL: upstream, timeout: configuration.upstreamTimeout, nonces: nonces, clock: clock, monotonic: monotonic,
            cacheTTL: configuration.appview == nil ? .zero : configuration.readCacheTTL, policy: policy,
            observe: RequestMetrics(metrics: metrics).upstreamCall, keepsConnectionsOpen: configuration.appview != nil,
            sendsClips: configuration.appview == nil)
        return Connections(writer: writer, policy: policy, nonces: nonces)
    }

    /// A remote hatk, or the embedded backend and its authorization server over the store they share.
    static func upstream(
        _ configuration: ServeConfiguration, connections: Connections, origins: OriginPolicy, pages: PageRenderer, dataKey: SealingKey,
        clips: ClipProcessor?, loopback: URL, clock: @escaping @Sendable () -> UTCTime
    ) throws -> Upstream {
        if let appview = configuration.appview {
            // One client reads and writes, so a write forgets the reads it changes.
            return Upstream(stories: RemoteStories(client: connections.writer), signIn: .remote(issuer: appview))
        }
        let ownOrigin: @Sendable (Request) -> String? = { request in
            if case .own(let origin) = origins.origin(of: request) { return origin.description }
            return nil
        }
        // The authorization server knows the household's accounts from the backend's store, and the backend
        // knows who a request acts for from the authorization server: the store is opened first, then each.
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let store = try BackendStore(path: configuration.dataDirectory + "/backend.sqlite")
        // Known to this process alone: the authorization server tells its own front's PAR from anyone else's by it.
        let frontKey = SecureRandom.token(byteCount: 32)
        var authConfiguration = AuthServerConfiguration(isOwnOrigin: { origins.isOwn(origin: $0) }, requestOrigin: ownOrigin)
        authConfiguration.requireDPoPNonce = configuration.requireDPoPNonce
        authConfiguration.registeredClients = configuration.registeredClients
        if configuration.fastPasswordHashing { authConfiguration.passwordParameters = .fastForTests }
        authConfiguration.clientAddress = { $0.clientKey }
        authConfiguration.ownFrontKey = frontKey
        let authServer = try AuthServer(
            dataDirectory: configuration.dataDirectory, configuration: authConfiguration, accounts: BackendAccounts(store: store),
            sealingKey: dataKey, clock: clock,
            renderSignIn: { page in
                pages.standalone("oauth-signin", title: "Sign in", model: page, status: HTTPStatus(code: page.status))
                    ?? Response.text(page.error ?? "Sign-in is unavailable", status: HTTPStatus(code: page.status))
            })
        // XRPC answers to outside clients carry image URLs on the origin they asked on.
        let backend = try EmbeddedBackend(
            dataDirectory: configuration.dataDirectory, store: store, clock: clock,
            authenticator: AuthServerViewers(authServer: authServer), origin: ownOrigin,
            privateReads: configuration.audience == .household, clips: clips)
        return Upstream(
            backend: backend, authServer: authServer,
            household: EmbeddedHousehold(
                backend: backend, authServer: authServer, handleDomain: configuration.handleDomain,
                setupCode: try SetupCode(dataDirectory: configuration.dataDirectory)),
            moderation: EmbeddedModeration(store: backend.store), stories: EmbeddedStories(queries: backend.queries),
            signIn: .embedded(transport: loopback, metadata: Self.embeddedMetadata, frontKey: frontKey))
    }

    /// What the front is told of the configuration.
    static func frontSettings(_ configuration: ServeConfiguration) throws -> FrontSettings {
        var settings = FrontSettings()
        settings.audience = configuration.audience
        settings.householdName = configuration.householdName
        settings.householdContact = configuration.householdContact
        // A remote hatk's members have handles of their own (grain.social's are Bluesky's); ours end in our domain.
        settings.handleExample = configuration.appview == nil ? "yourname." + configuration.handleDomain : "yourname.bsky.social"
        settings.photoDurationMs = Int(configuration.storySeconds * 1000)
        settings.kioskFrameAncestors = configuration.kioskFrameAncestors
        settings.pageDeadline = .milliseconds(Int(configuration.upstreamTimeout * 1000))
        settings.pageCacheTTL = configuration.pageCacheTTL
        settings.seenBatchDelay = configuration.seenBatchDelay
        settings.uploadsPerMinute = configuration.uploadsPerMinute
        settings.signInsPerMinute = configuration.signInsPerMinute
        settings.canonicalOrigin = configuration.canonicalOrigin
        // A remote hatk writes the post to the member's own repository; the embedded household has no Bluesky.
        settings.canCrossPost = configuration.appview != nil
        settings.metricsFrom = try TrustedProxies(parsing: configuration.metricsFrom)
        return settings
    }

    /// Where the front keeps sessions, seen marks and limits: `front.sqlite`, or PostgreSQL shared with other fronts.
    static func frontStores(_ configuration: ServeConfiguration, shared: SharedSessions?, dataKey: SealingKey) throws -> FrontStores {
        if let shared { return .shared(shared) }
        return try .local(dataDirectory: configuration.dataDirectory, sealingKey: dataKey)
    }

    /// Posting: the image pipeline's limits and its own worker pool (link previews have theirs, so strangers cannot
    /// keep it busy), the geocoders, and the clip processor where clips are offered.
    static func publisher(
        _ configuration: ServeConfiguration, connections: Connections, places: Geocoders, clips: ClipProcessor?
    ) -> StoryPublisher {
        var pipeline = PipelineOptions()
        pipeline.maxBytes = configuration.maxPhotoBytes
        return StoryPublisher(
            writer: connections.writer,
            work: WorkerPool(label: "images", workers: configuration.imageWorkers, queueLimit: configuration.imageQueue),
            pipeline: pipeline, geocoder: places.posting, places: places.offline, clips: clips)
    }

    /// What the front reads, writes and signs in through. The embedded household's photos and viewed state are
    /// reached in process, never over our own listener.
    static func frontUpstream(
        _ configuration: ServeConfiguration, upstream: Upstream, connections: Connections, clock: @escaping @Sendable () -> UTCTime
    ) -> FrontUpstream {
        var front = FrontUpstream(
            stories: upstream.stories, writer: connections.writer,
            signIn: SignInServers.Configuration(
                server: upstream.signIn, timeout: configuration.upstreamTimeout, policy: connections.policy, nonces: connections.nonces))
        if let backend = upstream.backend {
            front.photos = EmbeddedPhotos(backend: backend)
            front.markViewed = { [store = backend.store] stories, viewer in
                try store.privateState.markViewed(stories.map(\.description), by: viewer, now: clock())
            }
        }
        return front
    }

    /// The front, from the parts the steps before made.
    static func buildFront(
        _ configuration: ServeConfiguration, upstream: Upstream, connections: Connections, origins: OriginPolicy, pages: PageRenderer,
        stores: FrontStores, health: ServerHealth, clips: ClipProcessor?, clock: @escaping @Sendable () -> UTCTime,
        monotonic: MonotonicClock
    ) throws -> Front {
        let places = Self.geocoders(configuration, clock: monotonic)
        return Front(
            pages: pages, settings: try frontSettings(configuration), state: stores,
            upstream: frontUpstream(configuration, upstream: upstream, connections: connections, clock: clock),
            household: FrontHousehold(
                directory: upstream.household, moderation: upstream.moderation,
                descriptions: upstream.backend.map { EmbeddedDescriptions(store: $0.store) }),
            publisher: publisher(configuration, connections: connections, places: places, clips: clips), placeSearch: places.search,
            origins: { origins.origin(of: $0) }, clientAddress: { $0.clientKey }, probes: health,
            uploads: configuration.dataDirectory + "/uploads", clock: clock, monotonic: monotonic)
    }

    /// One router over the static files, the front, the backend's `/xrpc` and `/img` (kept by the household's
    /// rules) and the authorization server.
    static func router(
        _ configuration: ServeConfiguration, front: Front, upstream: Upstream, assets: StaticFiles, origins: OriginPolicy
    ) -> Router {
        var router = Router()
        router.use(SecurityHeaders.DefaultPolicy())
        assets.register(on: &router)
        front.register(on: &router)
        upstream.backend?.register(on: &router)
        if let backend = upstream.backend {
            for prefix in ["/img", "/xrpc"] {
                router.group(prefix) { group in group.use(BackendHosts(origins: origins)) }
            }
            var signedIn: (@Sendable (Request) -> Bool)?
            if configuration.audience == .household { signedIn = { [front] in front.admitsPhotosFromMemory($0) } }
            let photos = ImmediatePhotos(backend: backend, hosts: BackendHosts(origins: origins), household: signedIn)
            router.group("/img") { group in group.immediateResponder = { photos.answer($0) } }
        }
        if let authServer = upstream.authServer, configuration.audience == .household {
            let reads = HouseholdReads(signedIn: { [front] in front.admitsPhotos($0) }, token: { authServer.admitsResourceRequest($0.head) })
            for prefix in ["/img", "/xrpc"] {
                router.group(prefix) { group in
                    group.use(reads)
                    // Refusals made before any handler (a write's missing token) go without CORS too.
                    let render = group.errorResponder
                    group.errorResponder = { error, request in HouseholdReads.withoutCORS(render(error, request)) }
                }
            }
        }
        upstream.authServer?.register(on: &router)
        return router
    }

    /// The HTTP server on the bound listener, believing the configured proxies.
    static func server(
        _ configuration: ServeConfiguration, listener: Listener, router: Router, trustedProxies: TrustedProxies, metrics: Metrics
    ) -> HTTPServer {
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.host = configuration.host
        serverConfiguration.port = listener.port
        serverConfiguration.trustedProxies = trustedProxies
        serverConfiguration.responseHeaders = SecurityHeaders.baseline
        serverConfiguration.observer = RequestMetrics(metrics: metrics)
        return HTTPServer(configuration: serverConfiguration, router: router, listener: listener)
    }
}
