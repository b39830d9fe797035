import App
import Foundation
import Server
import TestSupport
import Testing

@Suite(.serialized)
struct UpstreamTests {
    @Test("with --appview the front reads another hatk server over HTTP and its own backend is off")
    func remoteAppview() async throws {
        let upstream = try await LiveApp()
        defer { Task { await upstream.stop() } }
        let front = try await LiveApp(demo: false, appview: URL(string: upstream.base)!, startingAt: upstream.clock.now)
        defer { Task { await front.stop() } }
        #expect(front.app.backend == nil)
        let home = try await front.get("/")
        #expect(captures(#"data-story-author="([^"]+)""#, in: home.body).count == 3)
        #expect(try await front.get("/xrpc/social.grain.unspecced.getStoryAuthors").status == 404)
    }

    @Test("the CSP lets forms lead to exactly our own origin and the configured authorization server, nothing wider")
    func formActionNamesExactlyTheAuthorizationServer() async throws {
        func formAction(_ live: LiveApp) async throws -> String? {
            let policy = try #require(try await live.get("/login").headers["Content-Security-Policy"])
            return policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("form-action ") }
        }
        let remote = try await LiveApp(demo: false, appview: URL(string: "https://hatk.example:8443/")!, upstreamTimeout: 2)
        defer { Task { await remote.stop() } }
        #expect(try await formAction(remote) == "form-action 'self' https://hatk.example:8443")
        let embedded = try await LiveApp()
        defer { Task { await embedded.stop() } }
        #expect(try await formAction(embedded) == "form-action 'self'")
    }

    @Test("an unreachable upstream gives a clear 502 page with a retry link, and the server stays up")
    func upstreamDown() async throws {
        let front = try await LiveApp(demo: false, appview: URL(string: "http://127.0.0.1:9")!, upstreamTimeout: 2)
        defer { Task { await front.stop() } }
        let page = try await front.get("/profile/maya.home.test")
        #expect(page.status == 502)
        #expect(page.body.contains("Try again"))
        #expect(page.body.contains(#"href="/profile/maya.home.test""#))
        #expect(try await front.get("/healthz").status == 200)
    }
}
