import ATProto
import App
import AuthServer
import Backend
import Foundation
import Server
import Synchronization
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let demoPhotos: String =
    ProcessInfo.processInfo.environment["GRAIN_DEMO_PHOTOS"]
    ?? repositoryRoot.appendingPathComponent(".build/demo-photos").path

/// A real grain-stories on 127.0.0.1 and a free port, with the repository's templates and assets.
struct LiveApp {
    let app: Application
    let clock: TestClock
    let base: String
    let dataDirectory: String

    init(
        demo: Bool = true, appview: URL? = nil, upstreamTimeout: TimeInterval = 10, dpopNonces: Bool = false, behindTLSProxy: Bool = false,
        caches: Bool = false, port: UInt16 = 0, publicURL: String? = nil, storySeconds: Double = 5, startingAt: UTCTime? = nil,
        visibility: Audience = .public,
        configure: (inout ServeConfiguration) -> Void = { _ in }
    ) async throws {
        var configuration = ServeConfiguration()
        configuration.port = port
        configuration.publicURL = publicURL
        configuration.dataDirectory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("app-\(UUID().uuidString)").path
        // Each test's sealing key lives beside its data directory, never in the home directory.
        configuration.keyDirectory = configuration.dataDirectory + "-keys"
        configuration.templatesDirectory = repositoryRoot.appendingPathComponent("Templates").path
        configuration.publicDirectory = repositoryRoot.appendingPathComponent("Public").path
        configuration.demo = demo
        configuration.demoPhotosDirectory = demoPhotos
        configuration.appview = appview
        configuration.upstreamTimeout = upstreamTimeout
        configuration.fastPasswordHashing = true
        configuration.requireDPoPNonce = dpopNonces
        configuration.behindTLSProxy = behindTLSProxy
        configuration.storySeconds = storySeconds
        // Most live tests are about what a public household shows anyone (and a remote hatk's upstream is public, like
        // grain.social); the household default is PrivateHouseholdTests' and the deployment suite's.
        configuration.visibility = visibility
        // Tests that move the clock want every read fresh; the cache test turns caching on.
        if !caches {
            configuration.readCacheTTL = .zero
            configuration.pageCacheTTL = .zero
        }
        configure(&configuration)
        // The demo household is copied from one seeded for this process; its clock starts when that was seeded. A
        // front reading another LiveApp starts at that one's time (DPoP proofs carry it).
        let clock =
            GoldenHousehold.applies(to: configuration)
            ? TestClock(try await GoldenHousehold.shared.copy(into: configuration)) : TestClock(startingAt ?? .now)
        self.clock = clock
        dataDirectory = configuration.dataDirectory
        app = try Application(configuration: configuration, clock: { clock.now })
        let seeded = try await app.seedDemoIfAsked()
        // Behind a TLS proxy the demo's members get random passwords (DemoPasswordsTests checks that); the tests
        // sign in with the README's in every topology.
        for (handle, _) in seeded where !configuration.isLoopbackOnly {
            guard let account = try app.backend?.store.accounts.account(handle) else { continue }
            try await app.authServer?.setPassword(String(handle.prefix { $0 != "." }) + "-stories", for: account.did)
        }
        try app.start()
        base = app.publicURL
    }

    func stop() async { await app.stop() }

    /// GET without following redirects.
    func get(_ path: String) async throws -> (status: Int, body: String, headers: [String: String]) {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: URL(string: base + path)!)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for name in ["Content-Type", "Location", "Content-Security-Policy", "X-Content-Type-Options", "Cache-Control", "Referrer-Policy"] {
            headers[name] = http.value(forHTTPHeaderField: name)
        }
        return (http.statusCode, String(decoding: data, as: UTF8.self), headers)
    }
}

final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
