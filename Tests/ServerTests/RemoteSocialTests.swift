import ATProto
import AuthServer
import Foundation
import FrontState
import Lexicon
import Storage
import TestSupport
import Testing

@testable import App
@testable import Backend
@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// The same behaviours against a remote hatk: a front started with `--appview`, reading and writing over HTTP with
/// DPoP through HatkClient, against another grain-stories whose embedded backend and authorization server stand in for
/// hatk (they answer every method in hatk's shapes, and the front is registered there as hatk's `oauth.clients` would
/// list it). Nothing of the front's runs in the upstream's process: every check of the upstream's state is its store.
@Suite(.serialized)
struct RemoteSocialTests {
    /// A port nothing listens on right now, for a server whose origin must be known before it starts.
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// The upstream household (demo data) and a front that uses it as its remote hatk.
    /// - Parameter configure: changes both servers' configuration.
    static func pair(
        storySeconds: Double = 5, configure: (inout ServeConfiguration) -> Void = { _ in }
    ) async throws -> (upstream: LiveApp, front: LiveApp) {
        let port = try freePort()
        let origin = "http://127.0.0.1:\(port)"
        let upstream = try await LiveApp(configure: { configuration in
            configuration.registeredClients = [
                RegisteredClient(clientID: origin + "/oauth-client-metadata.json", redirectURIs: [origin + "/auth/callback"])
            ]
            configure(&configuration)
        })
        let front = try await LiveApp(
            demo: false, appview: URL(string: upstream.base)!, port: port, storySeconds: storySeconds, startingAt: upstream.clock.now,
            configure: configure)
        return (upstream, front)
    }

    /// Signs in at the front; the authorization server's form is on the upstream's origin.
    static func signIn(_ browser: Browser, upstream: LiveApp, name: String) async throws {
        let login = try await browser.get("/login?next=/")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: login.body).first)
        let started = try await browser.post("/login", form: [("csrf", csrf), ("handle", "\(name).home.test"), ("next", "/")])
        let authorize = try #require(started.location, "starting sign-in answered \(started.status): \(started.body.prefix(300))")
        #expect(authorize.hasPrefix(upstream.base + "/oauth/authorize"))
        // The sign-in page is the upstream's: its own cookies, and POSTs that come from its origin.
        let there = Browser(base: upstream.base)
        let page = try await there.get(authorize)
        let requestURI = unescape(try #require(captures(#"name="request_uri" value="([^"]+)""#, in: page.body).first))
        let asCSRF = unescape(try #require(captures(#"name="csrf" value="([^"]+)""#, in: page.body).first))
        let approved = try await there.post(
            "/oauth/authorize",
            form: [("request_uri", requestURI), ("csrf", asCSRF), ("username", name), ("password", "\(name)-stories")])
        let callback = try #require(approved.location, "the sign-in form answered \(approved.status)")
        let landed = try await browser.get(callback)
        #expect(landed.status == 303 && landed.location == "/", "the callback answered \(landed.status): \(landed.body.prefix(300))")
    }

    @Test("against a remote hatk: favourite, comment, report, mute and block go over HTTP as the visitor, with reasons from its describeLabels")
    func socialOverHTTP() async throws {
        let (upstream, front) = try await Self.pair()
        defer {
            Task {
                await front.stop()
                await upstream.stop()
            }
        }
        #expect(front.app.backend == nil)
        let store = try #require(upstream.app.backend?.store)
        let queries = try #require(upstream.app.backend?.queries)
        let maya = Browser(base: front.base)
        try await Self.signIn(maya, upstream: upstream, name: "maya")
        let mayaDID = try #require(try store.accounts.account("maya.home.test")?.did)
        let jonasDID = try #require(try store.accounts.account("jonas.home.test")?.did)
        let social = SocialTests()
        let token = try await social.csrf(maya)
        let jonas = try await social.stories(maya, jonasDID.rawValue)
        let story = jonas.items[1]
        #expect(story.image.hasPrefix(upstream.base), "images are the remote hatk's, absolute")

        // Favourite: a record in the upstream's store, and viewer.fav read back signed.
        #expect(try await maya.post(story.favHref, form: [("csrf", token)]).status == 303)
        let fav = try #require(try store.social.favorite(by: mayaDID, of: story.uri))
        #expect(try await social.stories(maya, jonasDID.rawValue).items[1].fav == fav.uri)
        #expect(try await maya.post(story.favHref, form: [("csrf", token), ("fav", fav.uri)]).status == 303)
        #expect(try store.social.favorite(by: mayaDID, of: story.uri) == nil)

        // Comment, as JSON for the viewer's panel.
        #expect(try await maya.post(story.commentsHref, form: [("csrf", token), ("text", "From afar")]).status == 303)
        let uri = try ATURI(story.uri)
        let thread = try queries.commentThread(subject: uri, viewer: nil, imageBase: "")
        #expect(thread.comments.map(\.text) == ["From afar"] && thread.comments.first?.author.did == mayaDID.rawValue)
        let data = try await maya.get("/api/comments/\(uri.authority)/\(uri.rkey)")
        #expect(data.body.contains("From afar") && data.body.contains(#""deleteHref":"#))

        // Report, with a reason the upstream's describeLabels names.
        let reported = try await maya.post("/report", form: [("csrf", token), ("actor", jonasDID.rawValue), ("label", "harassment")])
        #expect(reported.status == 200 && reported.body.contains("data-report-done"))
        try store.database.write { try $0.execute("UPDATE accounts SET role = 'owner' WHERE did = ?", [mayaDID.rawValue]) }
        #expect(try store.moderation.reports(by: mayaDID).map(\.label) == ["harassment"])
        #expect(try await maya.get("/admin/reports").status == 404, "a remote hatk's reports are moderated there")

        // Mute: hatk's own strip leaves jonas out; the front's walk and kiosk do too.
        #expect(try await maya.post("/profile/\(jonasDID.rawValue)/mute", form: [("csrf", token)]).status == 303)
        #expect(try store.social.relationships(of: mayaDID).muted == [jonasDID.rawValue])
        #expect(!(try await maya.get("/").body.contains(jonasDID.rawValue)))
        #expect(!(try await maya.get("/api/kiosk").body.contains(jonasDID.rawValue)))
        #expect(try await maya.get("/muted").body.contains("Unmute"))
        #expect(try await maya.post("/profile/\(jonasDID.rawValue)/mute", form: [("csrf", token), ("undo", "1")]).status == 303)
        #expect(try store.social.relationships(of: mayaDID).muted.isEmpty)

        // Block: the front finds the block record through getBlocks and refuses the blocked author's stories.
        #expect(try await maya.post("/profile/\(jonasDID.rawValue)/block", form: [("csrf", token)]).status == 303)
        #expect(try store.social.relationships(of: mayaDID).blocking[jonasDID.rawValue] != nil)
        #expect(try await maya.get(story.href).status == 404)
        #expect(try await maya.post("/profile/\(jonasDID.rawValue)/block", form: [("csrf", token), ("undo", "1")]).status == 303)
        #expect(try store.social.relationships(of: mayaDID).blocking.isEmpty)
        #expect(try await maya.get(story.href).status == 200)

        // The create form offers the Bluesky cross-post for any remote hatk (one that reaches Bluesky writes it to the
        // member's repository, and the front cannot tell them apart without probing). This upstream has no Bluesky:
        // its createRecord refuses the post, so the story is posted and the page says the Bluesky post failed.
        #expect(try await maya.get("/create").body.contains(#"name="crossPost""#))
        let photo = try ExifJPEG.make(width: 640, height: 480, orientation: 1, latitude: 41.1496, longitude: -8.6109)
        let posted = try await UploadPipelineTests().postForm(maya, photo: photo, type: "image/jpeg", fields: [("crossPost", "on")])
        let location = try #require(posted.location)
        #expect(location.contains("posted=bluesky-failed"), "\(location)")
        let page = try await maya.get(location).body
        #expect(page.contains("the Bluesky post failed") && !page.contains("and to Bluesky"), "never a post that did not happen")
        #expect(try store.records.records(of: mayaDID.rawValue, collection: CrossPost.collection).isEmpty)
        let newest = try store.records.records(of: mayaDID.rawValue, collection: StoryRecord.collection).map(\.uri.rkey)
        #expect(newest.contains { location.contains($0) }, "the story itself was posted")
    }

    @Test("against a remote hatk with Grain's viewed state, seen marks go to its markStoriesViewed, and activity comes from its getNotifications")
    func viewedAndActivityOverHTTP() async throws {
        let (upstream, front) = try await Self.pair()
        defer {
            Task {
                await front.stop()
                await upstream.stop()
            }
        }
        let store = try #require(upstream.app.backend?.store)
        let queries = try #require(upstream.app.backend?.queries)
        let jonasDID = try #require(try store.accounts.account("jonas.home.test")?.did)
        let jonas = Browser(base: front.base)
        try await Self.signIn(jonas, upstream: upstream, name: "jonas")
        _ = try await jonas.get("/")
        #expect(front.app.front.seen.current == .upstream)
        let social = SocialTests()
        let ines = try await social.stories(jonas, "ines.home.test")
        for item in ines.items { _ = try await jonas.get(item.href) }
        let token = try await social.csrf(jonas)
        #expect(try await jonas.post("/api/seen", form: [("csrf", token), ("flush", "1")]).status == 204)
        let authors = try queries.storyAuthors(viewer: jonasDID, imageBase: "").authors
        #expect(authors.first { $0.profile.did == ines.author.did }?.unviewedCount == 0)
        // Back from the remote hatk: ines is seen.
        #expect(try await jonas.get("/").body.contains(#"data-story-author="\#(ines.author.did)" data-seen="true""#))

        // Ines favourites one of jonas's stories; jonas's header and activity page show it.
        let inesBrowser = Browser(base: front.base)
        try await Self.signIn(inesBrowser, upstream: upstream, name: "ines")
        let story = try await social.stories(inesBrowser, jonasDID.rawValue).items[0]
        #expect(try await inesBrowser.post(story.favHref, form: [("csrf", try await social.csrf(inesBrowser))]).status == 303)
        let activity = try await jonas.get("/activity")
        #expect(activity.body.contains("favourited your story") && activity.body.contains("Inês"))
    }
}
