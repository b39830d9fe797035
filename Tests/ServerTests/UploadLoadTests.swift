import ATProto
import Backend
import Foundation
import TestSupport
import Testing

@testable import App
@testable import Server

/// Uploads under load: a bounded image pool that sheds with 503 + Retry-After, and a per-client rate limit.
@Suite(.serialized)
struct UploadLoadTests {
    /// Waits (polling, bounded) until `condition` holds; false if it never did.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    @Test("50 concurrent uploads with a small pool each post (303) or get 503 with Retry-After, and the server serves on")
    func concurrentUploads() async throws {
        // setup
        let live = try await LiveApp {
            $0.imageWorkers = 1
            $0.imageQueue = 2
            $0.uploadsPerMinute = 1000
        }
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        let csrf = try await browser.createFormToken()
        let photo = try gradientJPEG(width: 1600, height: 1200)
        let before = try await storyCount(live, actor: "maya.home.test")

        // act
        let pages = try await withThrowingTaskGroup(of: Browser.Page.self) { group in
            for _ in 0..<50 { group.addTask { try await browser.postPhoto(photo, csrf: csrf) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // validate
        let posted = pages.filter { $0.status == 303 }
        let shed = pages.filter { $0.status == 503 }
        #expect(posted.count + shed.count == 50, "other answers: \(pages.map(\.status).filter { $0 != 303 && $0 != 503 })")
        #expect(!posted.isEmpty)
        #expect(!shed.isEmpty, "with one worker and two places in the queue, some of 50 uploads must be turned away")
        #expect(shed.allSatisfy { $0.retryAfter == "5" && $0.body.contains("Try again in a few seconds") })
        #expect(posted.allSatisfy { $0.location?.contains("/story/") == true })
        #expect(try await storyCount(live, actor: "maya.home.test") == before + posted.count, "every 303 is one story")
        #expect(try await live.get("/healthz").status == 200)
        #expect(try await live.get("/").status == 200)
        #expect(try await browser.postPhoto(try gradientJPEG(width: 300, height: 200, seed: 9), csrf: csrf).status == 303)
    }

    @Test("past the per-client rate an upload gets 429 with Retry-After and a clear form; the next window lets it in")
    func perClientRateLimit() async throws {
        // setup
        let live = try await LiveApp { $0.uploadsPerMinute = 2 }
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        let csrf = try await browser.createFormToken()

        // act
        var statuses: [Int] = []
        for seed in 0..<2 { statuses.append(try await browser.postPhoto(try gradientJPEG(width: 200, height: 150, seed: seed), csrf: csrf).status) }
        let limited = try await browser.postPhoto(try gradientJPEG(width: 200, height: 150, seed: 2), csrf: csrf)
        live.clock.advance(hours: 60.0 / 3600)
        let nextWindow = try await browser.postPhoto(try gradientJPEG(width: 200, height: 150, seed: 3), csrf: csrf)

        // validate
        #expect(statuses == [303, 303])
        #expect(limited.status == 429)
        #expect(limited.retryAfter == "60")
        #expect(limited.body.contains("Wait 60 seconds, then try again."))
        #expect(limited.body.contains(#"name="photo""#), "the form is shown again")
        #expect(nextWindow.status == 303)
    }

    /// A server that takes one upload a minute per client, maya signed in on it, and how she posts a photo whose
    /// request says `X-Forwarded-For: <forwardedFor>`: the answer's status. The caller stops the server.
    func oneUploadAMinute(
        behindTLSProxy: Bool
    ) async throws -> (
        live: LiveApp, post: @Sendable (_ seed: Int, _ forwardedFor: String) async throws -> Int
    ) {
        let live = try await LiveApp(behindTLSProxy: behindTLSProxy) { $0.uploadsPerMinute = 1 }
        let browser = Browser(base: live.base, behindTLSProxy: behindTLSProxy)
        try await browser.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        let csrf = try await browser.createFormToken()
        return (
            live,
            { seed, forwardedFor in
                try await browser.postPhoto(
                    try gradientJPEG(width: 200, height: 150, seed: seed), csrf: csrf, headers: ["X-Forwarded-For": forwardedFor]
                ).status
            }
        )
    }

    @Test("behind the TLS proxy, uploads are counted per last X-Forwarded-For hop, not per proxy")
    func rateLimitBehindProxy() async throws {
        // setup
        let (live, post) = try await oneUploadAMinute(behindTLSProxy: true)
        defer { Task { await live.stop() } }

        // act
        let first = try await post(0, "198.51.100.1, 203.0.113.5")
        let sameClientForged = try await post(1, "192.0.2.77, 203.0.113.5")
        let otherClient = try await post(2, "203.0.113.5, 203.0.113.6")

        // validate
        #expect(first == 303)
        #expect(sameClientForged == 429)
        #expect(otherClient == 303)
    }

    @Test(
        "without --behind-tls-proxy or --trusted-proxy, X-Forwarded-For is no one's word, loopback's included: every upload counts against the peer")
    func forwardedForIgnoredWithoutProxy() async throws {
        let (live, post) = try await oneUploadAMinute(behindTLSProxy: false)
        defer { Task { await live.stop() } }
        #expect(try await post(0, "198.51.100.1") == 303)
        #expect(try await post(1, "198.51.100.2") == 429, "a new X-Forwarded-For is not a new client")
    }

    @Test("an IPv6 client is counted by its /64: another address in it is the same client, the next /64 another")
    func rateLimitGroupsIPv6() async throws {
        // setup: behind the TLS proxy, so each request can say which client it is for
        let (live, post) = try await oneUploadAMinute(behindTLSProxy: true)
        defer { Task { await live.stop() } }

        // act
        let first = try await post(0, "2001:db8:7:1::1")
        let sameBlock = try await post(1, "2001:db8:7:1:8000::2")
        let nextBlock = try await post(2, "2001:db8:7:2::1")

        // validate
        #expect(first == 303)
        #expect(sameBlock == 429, "a new address in the same /64 does not get a new budget")
        #expect(nextBlock == 303)
    }

    /// How many active stories `handle` has, read from the embedded backend over XRPC (which wants a DID).
    func storyCount(_ live: LiveApp, actor handle: String) async throws -> Int {
        let did = try #require(try live.app.backend?.store.accounts.account(handle)?.did.rawValue)
        let page = try await live.get("/xrpc/social.grain.unspecced.getStories?actor=\(did)")
        let json = try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any]
        return (json?["stories"] as? [Any])?.count ?? -1
    }
}
