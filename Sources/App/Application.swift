import ATProto
import Backend
import Foundation
import HTMLRendering
import HTTPServer
import HatkClient

/// The whole server, assembled from configuration: the HTTP server, the front, and (unless an
/// appview is configured) the embedded backend on the same origin.
public final class Application: Sendable {
    public let configuration: AppConfiguration
    public let server: HTTPServer
    public let backend: EmbeddedBackend?
    let front: Front

    /// Builds everything without binding a port; `start()` binds.
    /// - Parameter clock: the current time, injectable so tests can move it.
    public init(configuration: AppConfiguration, clock: @escaping @Sendable () -> UTCTime = { .now }) throws {
        self.configuration = configuration
        let templates = try TemplateRenderer(
            directory: configuration.templatesDirectory, reloadOnChange: configuration.development)
        let assets = try StaticFiles(root: configuration.publicDirectory, watch: configuration.development)
        front = Front(pages: PageRenderer(templates: templates, assets: assets), clock: clock)

        if configuration.appview == nil {
            backend = try EmbeddedBackend(
                dataDirectory: configuration.dataDirectory, publicURL: configuration.resolvedPublicURL(port: configuration.port),
                clock: clock)
        } else {
            backend = nil
        }

        var router = Router()
        router.use(SecurityHeaders())
        let pages = front.pages
        router.errorResponder = { error, request in
            SecurityHeaders.apply(to: Self.errorResponse(error, request: request, pages: pages))
        }
        assets.register(on: &router)
        front.register(on: &router)
        backend?.register(on: &router)

        var serverConfiguration = ServerConfiguration()
        serverConfiguration.host = configuration.host
        serverConfiguration.port = configuration.port
        server = HTTPServer(configuration: serverConfiguration, router: router)
    }

    /// Errors as JSON on the backend's paths and as a page everywhere else.
    static func errorResponse(_ error: HTTPError, request: Request, pages: PageRenderer) -> Response {
        if request.path.hasPrefix("/xrpc/") {
            let body: [UInt8] = Array((try? JSONEncoder().encode(["error": error.message])) ?? Data())
            return Response(status: error.status, headers: ["Content-Type": "application/json"], body: .bytes(body))
        }
        let model = ErrorPage.Model(
            status: error.status.code, heading: error.status.reasonPhrase,
            message: error.message.isEmpty ? "Something went wrong." : error.message)
        return (try? pages.render("error", title: error.status.reasonPhrase, model: model, status: error.status))
            ?? Response.text(error.message, status: error.status)
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
            // The front reaches the embedded backend over loopback HTTP, exactly as it would a remote hatk.
            let host = ["0.0.0.0", "::", "localhost"].contains(configuration.host) ? "127.0.0.1" : configuration.host
            upstream = URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)")!
        }
        front.connect(HatkClient(baseURL: upstream, timeout: configuration.upstreamTimeout))
    }

    /// The origin browsers should use.
    public var publicURL: String { configuration.resolvedPublicURL(port: server.port) }

    /// Seeds the demo household when asked and the store is empty; returns the handles created.
    public func seedDemoIfAsked(now: UTCTime = .now) throws -> [String] {
        guard configuration.demo, let backend else { return [] }
        return try DemoHousehold.seed(
            into: backend, photos: configuration.demoPhotosDirectory, handleDomain: configuration.handleDomain, now: now)
    }
}
