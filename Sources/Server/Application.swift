public import ATProto
public import App
public import AuthServer
public import Backend
public import Clocks
import Crypto
public import Foundation
import FrontState
import HTMLRendering
public import HTTPServer
import HatkClient
import Imaging
import Logging
public import Metrics
import Outbound
import Places
import Publishing
import Video
import WebAddresses

/// The whole server, built in order from configuration: the listening socket first (so its real port is known),
/// then the embedded backend and its authorization server (unless an appview is configured), then the front,
/// then the router over all of them. Nothing is set after construction.
public final class Application: Sendable {
    public let configuration: ServeConfiguration
    public let server: HTTPServer
    /// Every route the server answers, as method and pattern.
    public let routeTable: [(method: HTTPMethod, pattern: String)]
    public let backend: EmbeddedBackend?
    /// The embedded backend's OAuth authorization server (absent with `--appview`).
    public let authServer: AuthServer?
    public let front: Front
    /// The page layout, shared by the front, the sign-in page and the router's error pages.
    let pages: PageRenderer
    /// Where this process reaches its own listener, for the front's writes to the embedded backend.
    public let loopback: URL
    let origins: OriginPolicy
    let maintenance = Maintenance()
    /// `--backup-dir`'s nightly backups; nil without one.
    let nightly: NightlyBackups?
    /// What start-up found of older databases, and the backup it made before migrating them.
    let upgrade: SchemaUpgrade.Outcome
    /// Requests, latencies and uploads since start, for `/metrics`.
    public let metrics: Metrics
    /// What `/healthz`, `/readyz` and `/metrics` report.
    let health: ServerHealth
    let clock: @Sendable () -> UTCTime

    /// Binds the port and builds everything, in the order each part needs the others: the listener (so the real
    /// port is known), the data directory, the pages, the upstream (the embedded backend and its authorization server,
    /// or a remote hatk), the front, then the router over all of them. `start()` begins serving.
    /// - Parameters:
    ///   - clock: the calendar, injectable so tests can move it.
    ///   - monotonic: what lifetimes and refreshes are measured on (the page cache, the machine's addresses, Nominatim's
    ///     pacing); a test moving `clock` passes its `TestClock.monotonic` so both move together.
    public init(
        configuration: ServeConfiguration, clock: @escaping @Sendable () -> UTCTime = { .now }, monotonic: MonotonicClock = .continuous
    ) throws {
        self.configuration = configuration
        self.clock = clock
        let listener = try Listener(host: configuration.host, port: configuration.port)
        let loopback = Self.loopback(host: configuration.host, port: listener.port)
        self.loopback = loopback
        let origins = try OriginPolicy(
            canonical: configuration.canonicalOrigin, allowedHosts: configuration.allowedHosts,
            behindTLSProxy: configuration.behindTLSProxy, clock: monotonic)
        self.origins = origins
        let trustedProxies = try TrustedProxies(parsing: configuration.believedProxies)
        (upgrade, nightly) = try Self.prepareData(configuration, clock: clock)
        let (pages, assets) = try Self.pages(configuration)
        self.pages = pages
        let dataKey = try DataKey.load(configuration.keyLocation)
        let metrics = Metrics()
        self.metrics = metrics
        let connections = Self.upstreamConnections(
            configuration, loopback: loopback, metrics: metrics, clock: clock, monotonic: monotonic)
        // One processor for the front's transcoding and the backend's checks, so its slots bound the whole process. A
        // remote hatk gets photos only: Grain's sessions may upload only images.
        let clips: ClipProcessor? = configuration.appview == nil ? Self.clipProcessor(configuration) : nil
        let upstream = try Self.upstream(
            configuration, connections: connections, origins: origins, pages: pages, dataKey: dataKey, clips: clips,
            loopback: loopback, clock: clock)
        backend = upstream.backend
        authServer = upstream.authServer
        let sharedSessions = try configuration.sessionsURL.map { try SharedSessions(url: $0, sealingKey: dataKey) }
        let health = ServerHealth(
            dataDirectory: configuration.dataDirectory, metrics: metrics, embedded: configuration.appview == nil,
            sharedSessions: sharedSessions)
        self.health = health
        let front = try Self.buildFront(
            configuration, upstream: upstream, connections: connections, origins: origins, pages: pages,
            stores: try Self.frontStores(configuration, shared: sharedSessions, dataKey: dataKey), health: health, clips: clips,
            clock: clock, monotonic: monotonic)
        self.front = front
        let router = Self.router(configuration, front: front, upstream: upstream, assets: assets, origins: origins)
        routeTable = router.table
        server = Self.server(configuration, listener: listener, router: router, trustedProxies: trustedProxies, metrics: metrics)
    }

    /// Starts serving on the bound socket, and the housekeeping that runs beside it.
    public func start() throws {
        try server.start()
        health.setAccepting(true)
        maintenance.start(self)
    }

    /// Stops serving, then writes what the front keeps in memory and merges every write-ahead log.
    public func stop() async {
        health.setAccepting(false)
        maintenance.stop()
        // Seen marks waiting for the upstream go first: the embedded backend is reached through this very server.
        await front.sendWaitingMarks()
        await server.shutdown()
        finish()
    }

    /// Serves until one of `signals` arrives, then stops cleanly, exactly as ``stop()`` does.
    /// - Parameter signals: Made before ``start()``, so a stop signal sent as soon as the port answers is kept.
    public func runUntilSignal(_ signals: StopSignals) async {
        await signals.wait()
        await stop()
    }

    /// What a clean stop does once no request runs: the seen marks kept in memory are written, and each database's
    /// WAL is merged into its file, so the data directory is whole without its `-wal` files (a copy of it, or a
    /// newer binary's migration, starts from everything that was committed).
    func finish() {
        do { try front.flush() } catch { log.error("could not write seen marks at shutdown: \(error)") }
        let checkpoints: [(String, () throws -> Void)] = [
            ("front.sqlite", front.checkpoint), ("backend.sqlite", { try self.backend?.store.checkpoint() }),
            ("auth.sqlite", { try self.authServer?.checkpoint() }),
        ]
        for (name, checkpoint) in checkpoints {
            do { try checkpoint() } catch { log.error("could not merge the write-ahead log of \(name) at shutdown: \(error)") }
        }
    }

    /// URLs other devices on the network can open: the machine's non-loopback addresses when listening on every
    /// interface, nothing when a public URL is configured (that is the address to use) or only loopback is bound.
    public func addressesForOtherDevices() -> [String] {
        guard configuration.canonicalOrigin == nil, ["0.0.0.0", "::"].contains(configuration.host) else { return [] }
        return MachineAddresses.current().filter { !$0.isLoopback }.map { "http://\($0.urlHost):\(loopback.port ?? 0)" }
    }

    /// What to tell a person whose server only this machine can reach (bound to loopback, no TLS proxy, no public
    /// URL elsewhere): how to let the household's phones in. Nil when other devices can already reach it.
    public func reachabilityHint() -> String? {
        guard configuration.isLoopbackOnly else { return nil }
        return "only this machine can open it; `--host 0.0.0.0` lets the phones on your network in"
    }

    /// The origin this server is reached at from its own machine, or the configured public URL.
    public var publicURL: String { configuration.canonicalOrigin ?? loopback.absoluteString }

    /// `http://<address>:<port>` for the address we listen on; loopback when that is every interface.
    static func loopback(host: String, port: UInt16) -> URL {
        let address = ["0.0.0.0", "::", "", "localhost"].contains(host) ? "127.0.0.1" : host
        let bracketed = address.contains(":") ? "[\(address)]" : address
        // A numeric address and a port always make a URL; the fallback only satisfies the type.
        return URL(string: "http://\(bracketed):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// The embedded authorization server's metadata as it answers on `origin`, known without asking it.
    static let embeddedMetadata: @Sendable (String) -> AuthorizationServerMetadata = { origin in
        AuthorizationServerMetadata(
            issuer: origin, authorizationEndpoint: origin + "/oauth/authorize", tokenEndpoint: origin + "/oauth/token",
            pushedAuthorizationRequestEndpoint: origin + "/oauth/par", revocationEndpoint: origin + "/oauth/revoke",
            dpopSigningAlgValuesSupported: ["ES256"])
    }

    /// `scheme://host[:port]` of a URL.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    typealias Geocoders = (posting: (any Geocoding)?, offline: OfflineGeocoder?, search: (any PlaceFinding)?)

    /// How places are named and found: at posting time (offline table, or Nominatim when chosen), the offline table
    /// alone for the form's early look, and the form's place search (through the same Nominatim client when chosen,
    /// so both share its pacing and cache).
    static func geocoders(_ configuration: ServeConfiguration, clock: MonotonicClock) -> Geocoders {
        let table = placeSearchTable(configuration)
        guard configuration.geocoder != .none else { return (nil, nil, table) }
        var offline: OfflineGeocoder?
        if FileManager.default.isReadableFile(atPath: configuration.placesCSV) {
            offline = OfflineGeocoder(path: configuration.placesCSV)
        } else {
            log.warning(
                "no readable place table at \(configuration.placesCSV) (run `make places-data`): photos keep their H3 cell but get no place name")
        }
        switch configuration.geocoder {
        case .offline: return (offline, offline, table)
        case .nominatim:
            // Public addresses only: coordinates must never go to whatever a name resolves to on the LAN.
            let client = NominatimClient(baseURL: configuration.nominatimURL, clock: clock, policy: configuration.nominatimPolicy)
            return (NominatimGeocoder(client: client, fallback: offline), offline, NominatimPlaceFinder(client: client, fallback: table))
        case .none: return (nil, nil, table)
        }
    }

    /// The offline place search, when the table is there; it is mapped at the first search.
    static func placeSearchTable(_ configuration: ServeConfiguration) -> PlaceFinder? {
        guard FileManager.default.isReadableFile(atPath: configuration.placeNamesCSV) else {
            log.warning(
                "no readable place search table at \(configuration.placeNamesCSV) (run `make places-data`): the create form offers no place search")
            return nil
        }
        return PlaceFinder(path: configuration.placeNamesCSV)
    }

    /// Seeds the demo household when asked and the store is empty; returns each handle created with its password.
    ///
    /// Only a server that nothing but this machine can reach keeps the passwords the README publishes: on any other
    /// address each member gets a random one, and a household seeded on loopback and now served to the network has
    /// its published passwords replaced, so nobody on the Wi-Fi signs in as its owner with `maya-stories`.
    public func seedDemoIfAsked() async throws -> [(handle: String, password: String)] {
        guard configuration.demo, let backend, let authServer else { return [] }
        let now = clock()
        let handles = try DemoHousehold.seed(
            into: backend, photos: configuration.demoPhotosDirectory, handleDomain: configuration.handleDomain, now: now)
        if !handles.isEmpty, configuration.demoExtraMembers > 0 {
            try DemoHousehold.seedExtraMembers(
                configuration.demoExtraMembers, into: backend, photos: configuration.demoPhotosDirectory,
                handleDomain: configuration.handleDomain, now: now)
        }
        if !handles.isEmpty, configuration.demoArchiveStories > 0 {
            try DemoHousehold.seedArchive(
                configuration.demoArchiveStories, into: backend, photos: configuration.demoPhotosDirectory, now: now)
        }
        let published = configuration.isLoopbackOnly
        // Seeded just now: every member gets a password. Seeded before: on loopback nothing changes; elsewhere only the
        // members still on a published password get a new one.
        let fresh = !handles.isEmpty
        guard fresh || !published else { return [] }
        var seeded: [(handle: String, password: String)] = []
        for handle in fresh ? handles : DemoHousehold.handles(domain: configuration.handleDomain) {
            guard let account = try backend.store.accounts.account(handle) else { continue }
            if !fresh, await !authServer.isPassword(Self.demoPassword(for: handle), of: account.did) { continue }
            let password = published ? Self.demoPassword(for: handle) : Self.randomPassword()
            try await authServer.setPassword(password, for: account.did)
            seeded.append((handle, password))
        }
        return seeded
    }
}
