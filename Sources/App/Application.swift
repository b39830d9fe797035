import ATProto
import AuthServer
import Backend
import Crypto
import Foundation
import HTMLRendering
import HTTPServer
import HatkClient
import Outbound
import Places

/// The whole server, assembled from configuration: the HTTP server, the front, and (unless an
/// appview is configured) the embedded backend on the same origin.
public final class Application: Sendable {
    public let configuration: AppConfiguration
    public let server: HTTPServer
    public let backend: EmbeddedBackend?
    /// The embedded backend's OAuth authorization server (absent with `--appview`).
    public let authServer: AuthServer?
    let front: Front

    /// Builds everything without binding a port; `start()` binds.
    /// - Parameter clock: the current time, injectable so tests can move it.
    public init(configuration: AppConfiguration, clock: @escaping @Sendable () -> UTCTime = { .now }) throws {
        self.configuration = configuration
        let templates = try TemplateRenderer(
            directory: configuration.templatesDirectory, reloadOnChange: configuration.development)
        let assets = try StaticFiles(root: configuration.publicDirectory, watch: configuration.development)
        let dataKey = try DataKey.load(dataDirectory: configuration.dataDirectory)
        let pages = PageRenderer(templates: templates, assets: assets)
        let publicURL = configuration.resolvedPublicURL(port: configuration.port)
        var household: HouseholdAdmin?
        if configuration.appview == nil {
            let backend = try EmbeddedBackend(
                dataDirectory: configuration.dataDirectory, publicURL: publicURL, clock: clock)
            var authConfiguration = AuthServerConfiguration(issuer: publicURL)
            authConfiguration.requireDPoPNonce = configuration.requireDPoPNonce
            if configuration.fastPasswordHashing { authConfiguration.passwordParameters = .fastForTests }
            let authServer = try AuthServer(
                dataDirectory: configuration.dataDirectory, configuration: authConfiguration, accounts: backend.store,
                sealingKey: dataKey, clock: clock,
                renderSignIn: { page in
                    (try? pages.render("oauth-signin", title: "Sign in", model: page, status: HTTPStatus(code: page.status)))
                        ?? Response.text(page.error ?? "Sign-in is unavailable", status: HTTPStatus(code: page.status))
                })
            backend.setAuthenticator(authServer)
            self.backend = backend
            self.authServer = authServer
            household = HouseholdAdmin(backend: backend, authServer: authServer, handleDomain: configuration.handleDomain)
        } else {
            backend = nil
            authServer = nil
        }
        front = Front(
            pages: pages,
            sessions: try SessionStore(path: configuration.dataDirectory + "/front.sqlite", key: dataKey),
            cookies: CookieSettings(secure: publicURL.hasPrefix("https://") || configuration.behindTLSProxy),
            household: household, uploads: try Self.uploadSettings(configuration), pageCacheTTL: configuration.pageCacheTTL,
            viewer: ViewerSettings(
                photoDurationMs: Int(configuration.storySeconds * 1000),
                kioskFrameAncestors: configuration.kioskFrameAncestors,
                pageDeadline: .milliseconds(Int(configuration.upstreamTimeout * 1000))),
            clock: clock)

        var router = Router()
        router.use(SecurityHeaders())
        router.errorResponder = { error, request in
            SecurityHeaders.apply(to: Self.errorResponse(error, request: request, pages: pages))
        }
        assets.register(on: &router)
        front.register(on: &router)
        backend?.register(on: &router)
        authServer?.register(on: &router)

        var serverConfiguration = ServerConfiguration()
        serverConfiguration.host = configuration.host
        serverConfiguration.port = configuration.port
        server = HTTPServer(configuration: serverConfiguration, router: router)
    }

    static func uploadSettings(_ configuration: AppConfiguration) throws -> UploadSettings {
        var settings = UploadSettings(
            work: ImageWork(limit: configuration.imageWorkers, queueLimit: configuration.imageQueue),
            limiter: UploadLimiter(perMinute: configuration.uploadsPerMinute))
        settings.pipeline.maxBytes = configuration.maxPhotoBytes
        var offline: OfflineGeocoder?
        if configuration.geocoder != .none {
            if FileManager.default.fileExists(atPath: configuration.placesCSV) {
                offline = OfflineGeocoder(path: configuration.placesCSV)
            } else {
                FileHandle.standardError.write(
                    Data(
                        "grain-stories: no place table at \(configuration.placesCSV) (run `make places`); photos keep their H3 cell but get no place name\n"
                            .utf8))
            }
        }
        switch configuration.geocoder {
        case .offline: settings.geocoder = offline
        case .nominatim:
            // Public addresses only: coordinates must never go to whatever a name resolves to on the LAN.
            let client = NominatimClient(baseURL: configuration.nominatimURL, policy: .publicOnly)
            settings.geocoder = NominatimGeocoder(client: client, fallback: offline)
        case .none: settings.geocoder = nil
        }
        return settings
    }

    /// Errors as JSON on the backend's paths and as a page everywhere else.
    static func errorResponse(_ error: HTTPError, request: Request, pages: PageRenderer) -> Response {
        var response: Response
        if request.path.hasPrefix("/xrpc/") {
            let body: [UInt8] = Array((try? JSONEncoder().encode(["error": error.message])) ?? Data())
            response = Response(status: error.status, headers: ["Content-Type": "application/json"], body: .bytes(body))
        } else {
            let model = ErrorPage.Model(
                status: error.status.code, heading: error.status.reasonPhrase,
                message: error.message.isEmpty ? "Something went wrong." : error.message)
            response =
                (try? pages.render("error", title: error.status.reasonPhrase, model: model, status: error.status))
                ?? Response.text(error.message, status: error.status)
        }
        // The error's own headers (Retry-After on a 503, Allow on a 405) go out with the page.
        for (name, value) in error.headers { response.headers[name] = value }
        return response
    }

    /// Binds the port, then points the front at its upstream (ourselves when embedded).
    public func start() throws {
        try server.start()
        let publicURL = configuration.resolvedPublicURL(port: server.port)
        let upstream: URL
        if let appview = configuration.appview {
            upstream = appview
        } else {
            backend?.setPublicURL(publicURL)
            authServer?.setIssuer(publicURL)
            // The front reaches the embedded backend over HTTP, exactly as it would a remote hatk: over loopback
            // by default, or through the configured public URL, which is the issuer whose URLs DPoP proofs must name.
            let host = ["0.0.0.0", "::", "localhost"].contains(configuration.host) ? "127.0.0.1" : configuration.host
            upstream =
                configuration.publicURL != nil
                ? URL(string: publicURL)!
                : URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)")!
        }
        let nonces = DPoPNonces()
        let clock = front.clock
        let unixClock: @Sendable () -> Int64 = { clock().microseconds / 1_000_000 }
        let issuer = configuration.appview ?? URL(string: publicURL)!
        // Only the configured upstream and issuer may be on loopback or the LAN (the embedded backend, a household
        // hatk); every other address the OAuth metadata or anything else names must be public.
        let policy = AddressPolicy.publicOnly.allowing([upstream, issuer])
        let oauth = OAuthClient(
            clientID: publicURL + SiteURL.clientMetadata.path, redirectURI: publicURL + SiteURL.authCallback.path,
            issuer: issuer, nonces: nonces, timeout: configuration.upstreamTimeout,
            clock: unixClock, policy: policy)
        let hatk = HatkClient(
            baseURL: upstream, timeout: configuration.upstreamTimeout, nonces: nonces, clock: unixClock,
            cacheTTL: configuration.readCacheTTL, policy: policy)
        front.connect(Front.Upstream(hatk: hatk, oauth: oauth, origin: publicURL))
    }

    /// The origin browsers should use.
    public var publicURL: String { configuration.resolvedPublicURL(port: server.port) }

    /// Seeds the demo household when asked and the store is empty; returns each handle created with its password.
    public func seedDemoIfAsked(now: UTCTime = .now) throws -> [(handle: String, password: String)] {
        guard configuration.demo, let backend, let authServer else { return [] }
        let handles = try DemoHousehold.seed(
            into: backend, photos: configuration.demoPhotosDirectory, handleDomain: configuration.handleDomain, now: now)
        if !handles.isEmpty, configuration.demoExtraMembers > 0 {
            try DemoHousehold.seedExtraMembers(
                configuration.demoExtraMembers, into: backend, photos: configuration.demoPhotosDirectory,
                handleDomain: configuration.handleDomain, now: now)
        }
        return try handles.map { handle in
            let password = Self.demoPassword(for: handle)
            guard let account = try backend.store.account(handle) else { return (handle, password) }
            try authServer.setPassword(password, for: account.did)
            return (handle, password)
        }
    }
}
