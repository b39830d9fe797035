import App
import Foundation
import HTTPServer
import Server
import Synchronization
import TestSupport
import Testing

/// A stand-in hatk server on 127.0.0.1 that fails every XRPC call in one chosen way.
struct FaultyUpstream {
    enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Nothing listens at the address.
        case down
        /// Answers long after the front's timeout.
        case slow
        /// Answers 503 with hatk's error body.
        case serverError
        /// Answers 200 with JSON cut short.
        case malformedJSON

        var testDescription: String { rawValue }
    }

    /// How long the slow upstream takes: well past the front's timeout.
    static let slowAnswer: Duration = .seconds(4)

    let url: URL
    private let server: HTTPServer?
    /// The current failure; nil answers like a healthy hatk with no stories.
    private let mode: Mode

    final class Mode: Sendable {
        let fault: Mutex<Fault?>
        init(_ fault: Fault) { self.fault = Mutex(fault) }
    }

    init(_ fault: Fault) async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.logsProtocolErrors = false
        // The slow handler is still asleep when the test ends; don't wait for it.
        configuration.shutdownGracePeriod = .milliseconds(50)
        let mode = Mode(fault)
        self.mode = mode
        var router = Router()
        router.on(.get, "/xrpc/:nsid") { _ in
            switch mode.fault.withLock({ $0 }) {
            case .slow?:
                try await Task.sleep(for: Self.slowAnswer)
                return Response.json(Array(#"{"authors":[]}"#.utf8))
            case .serverError?:
                return Response.json(Array(#"{"error":"InternalServerError","message":"database is gone"}"#.utf8), status: .serviceUnavailable)
            case .malformedJSON?:
                return Response.json(Array(#"{"authors":[{"did":"did:plc:"#.utf8))
            case .down?, nil:
                return Response.json(Array(#"{"authors":[]}"#.utf8))
            }
        }
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        url = URL(string: "http://127.0.0.1:\(server.port)")!
        if fault == .down {
            // A port that was just ours and is now closed: connections are refused.
            await server.shutdown()
            self.server = nil
        } else {
            self.server = server
        }
    }

    /// Answers like a healthy server from now on.
    func recover() { mode.fault.withLock { $0 = nil } }

    func stop() async { await server?.shutdown() }
}

/// Each kind of upstream failure, on each page that reads from the upstream: a clear page offering a retry,
/// within the configured timeout (plus a margin), and a server that keeps serving.
@Suite(.serialized)
struct UpstreamFaultTests {
    static let timeout: TimeInterval = 1
    static let margin: Duration = .milliseconds(1500)
    /// Home, a viewer page (a permalink with a DID, so only the story read can fail) and a profile by handle.
    static let pages = ["/", "/profile/did:plc:ewvi7nxzyoun6zhxrhs64oiz/story/3kabcdefghi2a", "/profile/maya.home.test"]

    @Test("a failing upstream gives home, viewer and profile a clear page with a retry link in time", arguments: FaultyUpstream.Fault.allCases)
    func failingUpstream(fault: FaultyUpstream.Fault) async throws {
        // setup
        let upstream = try await FaultyUpstream(fault)
        defer { Task { await upstream.stop() } }
        let front = try await LiveApp(demo: false, appview: upstream.url, upstreamTimeout: Self.timeout)
        defer { Task { await front.stop() } }

        for path in Self.pages {
            // act
            let start = ContinuousClock.now
            let page = try await front.get(path)
            let elapsed = ContinuousClock.now - start

            // validate
            #expect(page.status == (fault == .slow ? 504 : 502), "\(path)")
            #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true, "\(path)")
            #expect(page.body.contains("Stories are not available right now"), "\(path)")
            #expect(page.body.contains("Try again"), "\(path)")
            #expect(page.body.contains(#"href="\#(path)""#), "the retry link goes back to \(path)")
            #expect(elapsed < .seconds(Self.timeout) + Self.margin, "\(path) took \(elapsed)")
        }
        #expect(try await front.get("/healthz").status == 200)
        #expect(try await front.get("/").status == (fault == .slow ? 504 : 502), "the front still answers after the failures")
    }

    @Test("once the upstream recovers, the retry link serves the page")
    func retryAfterRecovery() async throws {
        // setup
        let upstream = try await FaultyUpstream(.serverError)
        defer { Task { await upstream.stop() } }
        let front = try await LiveApp(demo: false, appview: upstream.url, upstreamTimeout: Self.timeout)
        defer { Task { await front.stop() } }
        let failed = try await front.get("/")
        let retry = try #require(captures(#"href="([^"]+)"[^>]*>Try again"#, in: failed.body).first)

        // act
        upstream.recover()
        let retried = try await front.get(unescape(retry))

        // validate
        #expect(failed.status == 502)
        #expect(retried.status == 200)
    }
}
