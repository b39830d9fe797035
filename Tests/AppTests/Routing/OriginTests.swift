import HTTPServer
import Testing

@testable import App

@Suite struct OriginTests {
    @Test("a Host that is not ours gets a clear 421 page, never a page built on that name")
    func hostileHostIsRefused() async throws {
        let front = try FrontHarness()
        front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let response = await front.send(.get, "/", host: "evil.example")
        #expect(response.status.code == 421)
        #expect(response.text.contains("does not answer to that name"))
        #expect(!response.text.contains("evil.example"))
    }

    @Test("with a canonical origin, a page asked on another of our names is sent there, path and query kept")
    func nonCanonicalGetsRedirected() async throws {
        let front = try FrontHarness(origins: { _ in .notCanonical(canonical: "https://stories.example") })
        let response = await front.send(.get, "/profile/maya.home.test?x=1")
        #expect(response.status == .permanentRedirect)
        #expect(response.headers["Location"] == "https://stories.example/profile/maya.home.test?x=1")
        let post = await front.send(.post, "/login", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("a=1".utf8))
        #expect(post.status.code == 421)
        #expect(post.text.contains("https://stories.example"))
    }

    @Test("/healthz answers on any Host, for monitors that reach the box by whatever address works")
    func healthzAnswersAnywhere() async throws {
        let front = try FrontHarness()
        let response = await front.send(.get, "/healthz", host: "10.9.8.7:8080")
        #expect(response.status == .ok)
    }

    @Test("the client metadata is on the origin it was asked on")
    func clientMetadataFollowsTheOrigin() async throws {
        let front = try FrontHarness()
        for host in ["box.local:8080", "localhost:8080"] {
            let response = await front.send(.get, "/oauth-client-metadata.json", host: host)
            #expect(response.text.contains(#""client_id":"http://\#(host)/oauth-client-metadata.json""#))
            #expect(response.text.contains(#""redirect_uris":["http://\#(host)/auth/callback"]"#))
        }
    }
}
