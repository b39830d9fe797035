import ATProto
import HTTPServer
import Lexicon
import Synchronization
import TestSupport
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
        let policy = try OriginPolicy(
            canonical: "https://stories.example", machine: MachineNames(addresses: { [] }, hostName: { "box" }))
        let front = try FrontHarness(origins: { policy.origin(of: $0) })
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

@Suite struct PageChromeTests {
    @Test("every page's header names the signed-in member and offers sign-out; anonymous pages offer sign-in")
    func headerShowsWhoIsSignedIn() async throws {
        let front = try FrontHarness()
        let did = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let cookie = try front.signIn(did: did, handle: "maya.home.test")
        for path in ["/", "/create", "/profile/maya.home.test", "/login?next=/x"] {
            let page = await front.send(.get, path, headers: [("Cookie", "gs_session=\(cookie)")])
            if page.status == .seeOther { continue }  // /login redirects a signed-in visitor
            #expect(page.text.contains("data-signed-in-as>@maya.home.test<"), "\(path) names who is signed in")
            #expect(page.text.contains(#"action="/logout""#), "\(path) offers sign-out")
        }
        let anonymous = await front.send(.get, "/")
        #expect(anonymous.text.contains(#"href="/login">Sign in<"#))
        #expect(!anonymous.text.contains("data-signed-in-as"))
    }

    @Test("the CSP lets the create form preview a chosen photo (blob:), and COOP is only sent where browsers honour it")
    func contentPolicyFitsTheOrigin() async throws {
        let front = try FrontHarness()
        let lan = await front.send(.get, "/login")
        #expect(lan.headers["Content-Security-Policy"]?.contains("img-src 'self' data: blob:") == true)
        #expect(lan.headers["Cross-Origin-Opener-Policy"] == nil, "plain http on a LAN name: Chromium would log an error")
        let local = await front.send(.get, "/login", host: "localhost:8080")
        #expect(local.headers["Cross-Origin-Opener-Policy"] == "same-origin")
    }

    @Test("someone else's story page carries no delete dialog; one's own does")
    func deleteDialogOnlyOnOwnStories() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 1, now: front.clock.now)
        let cookie = try front.signIn(did: jonas, handle: "jonas.home.test")
        let mayas = try #require(front.stories.content.withLock { $0.stories[maya.rawValue]?.first })
        let own = try #require(front.stories.content.withLock { $0.stories[jonas.rawValue]?.first })
        let other = await front.send(.get, "/profile/\(maya.rawValue)/story/\(mayas.rkey)", headers: [("Cookie", "gs_session=\(cookie)")])
        #expect(other.status == .ok)
        #expect(!other.text.contains("data-delete-dialog"))
        let mine = await front.send(.get, "/profile/\(jonas.rawValue)/story/\(own.rkey)", headers: [("Cookie", "gs_session=\(cookie)")])
        #expect(mine.text.contains("data-delete-dialog"))
    }
}

@Suite struct StripTests {
    @Test("the strip's avatars past the first screen load lazily; the first screen's at once")
    func lazyAvatars() async throws {
        let front = try FrontHarness()
        for index in 0..<20 {
            let did = front.stories.addAuthor(handle: "m\(index)a.home.test", count: 1, now: front.clock.now, minutesAgo: Double(index + 1))
            front.stories.content.withLock { content in
                let at = content.authors.firstIndex { $0.profile.did == did.rawValue }!
                content.authors[at] = StoryAuthor(
                    profile: ProfileView(cid: "c", did: did.rawValue, handle: "m\(index)a.home.test", avatar: "/img/avatar/\(did.rawValue)/a"),
                    storyCount: 1, latestAt: content.authors[at].latestAt)
            }
        }
        let page = await front.send(.get, "/")
        let images = captures(#"(<img class="avatar"[^>]*>)"#, in: page.text)
        #expect(images.count == 20)
        #expect(images.prefix(HomePage.firstScreen).allSatisfy { !$0.contains("loading=\"lazy\"") })
        #expect(images.dropFirst(HomePage.firstScreen).allSatisfy { $0.contains("loading=\"lazy\"") })
    }
}
