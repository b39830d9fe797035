import ATProto
import App
import Backend
import Foundation
import Lexicon
import Server
import TestSupport
import Testing

/// The signed-in pages the server thread answers from memory (`Front.cachedPage`): a member's story page and the
/// story JSON its scripts read come from the page cache on a later request, the same bytes, and only ever to the
/// visitor they were made for.
@Suite struct SignedInFromMemoryTests {
    @Test(
        "a member's story page and story JSON come from memory on a later request, the same bytes; another member, a stranger, a foreign host and a signed-out session never get them"
    )
    func fromMemoryToTheirVisitorOnly() async throws {
        // A long page-cache lifetime, so that a slow machine cannot let the cached copy lapse between two requests.
        let live = try await LiveApp(caches: true, visibility: .household) { $0.pageCacheTTL = .seconds(120) }
        defer { Task { await live.stop() } }
        let backend = try #require(live.app.backend)
        let maya = try #require(try backend.store.accounts.account("maya.home.test"))
        let story = try #require(try backend.queries.stories(of: maya.did, viewer: nil, imageBase: "").stories.first)
        let page = "/profile/\(maya.did.rawValue)/story/\(try ATURI(story.uri).rkey)"
        let data = "/api/stories/\(maya.did.rawValue)"

        let author = Browser(base: live.base)
        try await author.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        // Both of a browser's cookies: without its CSRF cookie a page comes with a new one, and is not kept.
        let hers = try Self.cookies(of: author)
        let cookie = hers.session + "; " + hers.csrf
        var answers: [String: [PrivateHouseholdTests.Answer]] = [:]
        for path in [page, data] {
            // The first render marks the story seen, which changes the key of her pages (the strip's rings follow
            // it), so the second is rendered again; from then on the page is in memory under the new key.
            for _ in 0..<4 { answers[path, default: []].append(try await Self.get(live.base + path, cookie: cookie)) }
            let all = try #require(answers[path])
            #expect(all.allSatisfy { $0.status == 200 && $0.text.contains(story.uri) }, "\(path): \(all.map(\.status))")
            #expect(all[0].headers["x-request-id"] != nil, "\(path): the first is rendered on the full path")
            #expect(all[2].headers["x-request-id"] == nil && all[3].headers["x-request-id"] == nil, "\(path): later ones from memory")
            #expect(all[3].body == all[2].body)
            // The same headers as the full path's, the page's content policy and the private cache rules among them.
            for name in ["content-type", "cache-control", "content-security-policy", "x-content-type-options", "referrer-policy"] {
                #expect(all[3].headers[name] == all[0].headers[name], "\(path): \(name)")
            }
            #expect(all[3].headers["content-type"] != nil && all[3].headers["cache-control"]?.contains("no-store") == true)
        }
        #expect(answers[page]?[3].headers["content-security-policy"]?.contains("script-src 'self'") == true)
        let authorsPage = try #require(answers[page]?.first?.text)
        #expect(authorsPage.contains(#"href="\#(page)/shares""#), "the author's own viewer links to her share links")

        // Another member gets a page of their own, rendered for them, not the author's from memory.
        let other = Browser(base: live.base)
        try await other.signInThroughFront(handle: "jonas.home.test", password: "jonas-stories")
        let his = try Self.cookies(of: other)
        let theirs = try await Self.get(live.base + page, cookie: his.session + "; " + his.csrf)
        #expect(theirs.status == 200 && theirs.headers["x-request-id"] != nil && !theirs.text.contains(page + "/shares"))

        // A stranger, a forged session, her CSRF cookie without the session and a name that is not ours get nothing of it.
        for path in [page, data] {
            let stranger = try await Self.get(live.base + path, cookie: nil)
            let forged = try await Self.get(live.base + path, cookie: "gs_session=" + String(repeating: "A", count: 43))
            let csrfOnly = try await Self.get(live.base + path, cookie: hers.csrf)
            let foreign = try await PrivateHouseholdTests.send("GET", live.base + path, cookie: cookie, headers: ["Host": "rebound.example"])
            for answer in [stranger, forged, csrfOnly] {
                #expect([302, 401].contains(answer.status) && !answer.text.contains(story.uri), "\(path): \(answer.status)")
            }
            #expect(foreign.status == 421, "\(path): \(foreign.status)")
        }

        // Signed out: the cookie that was let in from memory a moment ago is a stranger's from the next request.
        let token = try #require(captures(#"data-csrf="([^"]+)""#, in: try await author.get("/").body).first)
        #expect(try await author.post("/logout", form: [("csrf", token)]).status == 303)
        for path in [page, data] {
            let after = try await Self.get(live.base + path, cookie: cookie)
            #expect([302, 401].contains(after.status) && !after.text.contains(story.uri), "\(path) after sign-out: \(after.status)")
        }
    }

    /// The browser's session and CSRF cookies, each as `name=value`.
    static func cookies(of browser: Browser) throws -> (session: String, csrf: String) {
        ("gs_session=" + (try #require(browser.cookie("gs_session"))), "gs_csrf=" + (try #require(browser.cookie("gs_csrf"))))
    }

    static func get(_ url: String, cookie: String?) async throws -> PrivateHouseholdTests.Answer {
        try await PrivateHouseholdTests.send("GET", url, cookie: cookie)
    }
}
