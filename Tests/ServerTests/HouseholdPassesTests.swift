import ATProto
import App
import Backend
import Foundation
import HatkClient
import Lexicon
import Readers
import Server
import TestSupport
import Testing

/// A private household's other ways in, over HTTP as a browser uses them: a guest the owner invited, a screen paired
/// for the kitchen wall, a link that shows one story. Each sees what it should and, walking every route, nothing else.
@Suite struct HouseholdPassesTests {
    typealias Walk = PrivateHouseholdTests

    /// An error page without its request id, which differs for every request.
    static func withoutID(_ body: String) -> String {
        body.replacingOccurrences(of: #"<code>[^<]*</code>"#, with: "", options: .regularExpression)
    }

    static func csrf(_ body: String) throws -> String {
        try #require(captures(#"name="csrf" value="([^"]+)""#, in: body).first, "the page has a form")
    }

    /// Signs in the demo's owner.
    static func owner(_ live: LiveApp) async throws -> Browser {
        let browser = Browser(base: live.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        return browser
    }

    @Test(
        "a guest joins through the owner's invitation, watches and comments, never posts, and walking every route reaches nothing of a poster's or the owner's"
    )
    func guestWatchesAndNeverPosts() async throws {
        let live = try await LiveApp(visibility: .household)
        defer { Task { await live.stop() } }
        let canaries = try Walk.Canaries(try #require(live.app.backend))
        let owner = try await Self.owner(live)
        let inviteForm = try await owner.get("/invite")
        #expect(inviteForm.body.contains(#"value="guest""#), "the invitation form offers a guest")
        let invited = try await owner.post("/invite", form: [("csrf", try Self.csrf(inviteForm.body)), ("role", "guest")])
        #expect(invited.body.contains(#"data-invite-role="guest""#))
        let link = try #require(captures(#"value="https?://[^"]+(/join/[^"]+)""#, in: invited.body).first)

        let guest = Browser(base: live.base)
        let join = try await guest.get(link)
        #expect(join.status == 200 && join.body.contains("as a guest"), "\(join.status)")
        let joined = try await guest.post(
            link,
            form: [
                ("csrf", try Self.csrf(join.body)), ("name", "oma"), ("displayName", "Oma Ana"), ("password", "oma-stories"),
                ("confirm", "oma-stories"),
            ])
        #expect(
            joined.status == 303 && joined.location?.hasPrefix("/login?next=/&") == true, "a guest lands on the stories: \(joined.location ?? "")")
        #expect(try live.app.backend?.store.members.member("oma.home.test")?.role == .guest)
        try await guest.signInThroughFront(handle: "oma.home.test", password: "oma-stories")

        let home = try await guest.get("/")
        #expect(home.status == 200 && home.body.contains("data-strip") && home.body.contains(canaries.did))
        #expect(!home.body.contains("data-your-story") && !home.body.contains(#">New story<"#), "a guest is offered no posting")
        let create = try await guest.get("/create")
        #expect(create.status == 403 && create.body.contains("guest"), "\(create.status) \(create.body.prefix(300))")
        #expect(try await guest.get("/admin").status == 403)
        #expect(try await guest.get("/invite").status == 403)

        // The guest's own client, straight to the backend: reading and commenting work, posting does not.
        let (client, credentials) = try await signInForWrites(base: live.base, handle: "oma.home.test", password: "oma-stories")
        let authors = try await client.reading(as: { credentials }).storyAuthors()
        #expect(!authors.isEmpty && !authors.contains { $0.profile.handle == "oma.home.test" }, "the guest watches and is never in the strip")
        let story = try ATURI(canaries.uri)
        _ = try await client.favorite(story, createdAt: live.clock.now.iso8601, as: credentials)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        await #expect(throws: HatkError.self) { _ = try await client.uploadBlob(png, mimeType: "image/png", as: credentials) }
        do {
            _ = try await client.createRecord(
                collection: StoryRecord.collection, record: .object(["createdAt": .string(live.clock.now.iso8601)]), as: credentials)
            Issue.record("a guest's story was written")
        } catch {
            #expect(error.kind == .http(status: 403, error: "Forbidden"), "\(error)")
        }

        // Every route as the guest: nothing fails, and every poster's and owner's page refuses.
        let (problems, statuses, _) = try await Walk.walk(live, canaries, cookie: "gs_session=\(try #require(guest.cookie("gs_session")))") { _ in
            true
        }
        #expect(problems == [], "\(problems.prefix(20))")
        for path in ["/create", "/admin", "/admin/reports", "/invite", "/api/places"] {
            #expect(statuses["GET \(path)"] == 403, "GET \(path) answered a guest \(statuses["GET \(path)"] ?? 0)")
        }
        let shares = statuses.filter { $0.key.hasPrefix("GET ") && $0.key.hasSuffix("/shares") }
        #expect(!shares.isEmpty && shares.values.allSatisfy { $0 == 403 }, "share links are for posters: \(shares)")
        #expect(try await owner.get("/admin").body.contains("Guest"), "the owner sees the guest's role")
    }

    @Test(
        "a screen paired from the kiosk settings plays the kiosk and reaches nothing else; the pairing link works once; Remove stops it at its next request"
    )
    func pairedScreenSeesOnlyTheKiosk() async throws {
        let live = try await LiveApp(visibility: .household)
        defer { Task { await live.stop() } }
        let canaries = try Walk.Canaries(try #require(live.app.backend))
        let owner = try await Self.owner(live)
        let settings = try await owner.get("/kiosk/settings?memories=1")
        #expect(settings.body.contains("data-pair-screen"))
        let made = try await owner.post(
            "/kiosk/pair", form: [("csrf", try Self.csrf(settings.body)), ("name", "Kitchen"), ("kiosk", "memories=1")])
        #expect(made.status == 200 && made.body.contains("data-pairing-qr"), "\(made.status)")
        let path = try #require(captures(#"value="https?://[^"]+(/kiosk/pair/[^"]+)""#, in: made.body).first)
        let qr = try await owner.get(path + "/qr.svg")
        #expect(qr.status == 200 && qr.body.contains("<svg"))

        let screen = Browser(base: live.base)
        let confirm = try await screen.get(path)
        #expect(confirm.status == 200 && confirm.body.contains("Kitchen"))
        let paired = try await screen.post(path, form: [("csrf", try Self.csrf(confirm.body))])
        #expect(paired.status == 303 && paired.location == "/kiosk?memories=1", "\(paired.status) \(paired.location ?? "")")
        let credential = try #require(screen.cookie("gs_screen"))
        #expect(try String(contentsOfFile: live.dataDirectory + "/backend.sqlite", encoding: .isoLatin1).contains(credential) == false)

        // Used once: the link now answers exactly as one that never existed.
        let again = try await Browser(base: live.base).get(path)
        let never = try await Browser(base: live.base).get("/kiosk/pair/never-was-a-token")
        #expect(again.status == 404 && never.status == 404 && Self.withoutID(again.body) == Self.withoutID(never.body))

        let kiosk = try await screen.get("/kiosk?memories=1")
        #expect(kiosk.status == 200 && kiosk.body.contains("data-kiosk") && !kiosk.body.contains("data-kiosk-exit"), "\(kiosk.status)")
        let playlist = try await screen.get("/api/kiosk?memories=1")
        let photo = try #require(captures(#""(/img/[^"]+)""#, in: playlist.body).first, "the playlist has photos")
        #expect((try await screen.get(photo)).contentType?.hasPrefix("image/") == true, "the screen shows the playlist's photos")

        // Everything but the kiosk, its playlist and photos is a stranger's answer.
        let cookie = "gs_screen=\(credential)"
        let (problems, _, _) = try await Walk.walk(live, canaries, cookie: cookie) {
            $0.hasPrefix("/kiosk?") || $0 == "/kiosk" || $0.hasPrefix("/api/kiosk") || $0.hasPrefix("/img/")
        }
        #expect(problems == [], "\(problems.count) answers gave a screen more than the kiosk:\n\(problems.prefix(30).joined(separator: "\n"))")

        let admin = try await owner.get("/admin")
        #expect(admin.body.contains(#"data-screen="Kitchen""#))
        let id = try #require(captures(#"name="screen" value="([^"]+)""#, in: admin.body).first)
        let removed = try await owner.post("/admin", form: [("csrf", try Self.csrf(admin.body)), ("action", "remove-screen"), ("screen", id)])
        #expect(removed.status == 200 && !removed.body.contains(#"data-screen="Kitchen""#))
        let after = try await screen.get("/kiosk?memories=1")
        #expect(after.status == 302 && after.location?.hasPrefix("/login") == true, "a removed screen is a stranger: \(after.status)")
        #expect(try await screen.get("/api/kiosk").status == 401)
        #expect(try await screen.get(photo).status == 401)
    }

    @Test(
        "a paired screen's playlist and photos come from memory after their first look-up, and Remove stops both at the next request, within the page cache's second"
    )
    func pairedScreenFromMemoryUntilRemoved() async throws {
        let live = try await LiveApp(caches: true, visibility: .household)
        defer { Task { await live.stop() } }
        let owner = try await Self.owner(live)
        let settings = try await owner.get("/kiosk/settings")
        let made = try await owner.post("/kiosk/pair", form: [("csrf", try Self.csrf(settings.body)), ("name", "Hall"), ("kiosk", "")])
        let path = try #require(captures(#"value="https?://[^"]+(/kiosk/pair/[^"]+)""#, in: made.body).first)
        let screen = Browser(base: live.base)
        let confirm = try await screen.get(path)
        #expect(try await screen.post(path, form: [("csrf", try Self.csrf(confirm.body))]).status == 303)

        // The first of each reads the screen (and notes it was seen); later ones are answered on the server thread.
        var playlists: [Browser.Page] = []
        // (Several tries: on a busy machine one second of page cache can pass between two requests.)
        for _ in 0..<5 { playlists.append(try await screen.get("/api/kiosk")) }
        #expect(playlists.allSatisfy { $0.status == 200 && $0.body == playlists[0].body })
        #expect(playlists[0].requestID != nil && playlists.dropFirst().contains { $0.requestID == nil }, "the playlist from memory")
        let photo = try #require(captures(#""(/img/[^"]+)""#, in: playlists[0].body).first)
        var photos: [Browser.Page] = []
        for _ in 0..<2 { photos.append(try await screen.get(photo)) }
        #expect(photos.allSatisfy { $0.status == 200 } && photos[1].requestID == nil, "the photo from memory")

        let admin = try await owner.get("/admin")
        let id = try #require(captures(#"name="screen" value="([^"]+)""#, in: admin.body).first)
        #expect(
            try await owner.post("/admin", form: [("csrf", try Self.csrf(admin.body)), ("action", "remove-screen"), ("screen", id)]).status == 200)
        #expect(try await screen.get("/api/kiosk").status == 401, "removed: the cached playlist is not the screen's any more")
        #expect(try await screen.get(photo).status == 401)
    }

    @Test("pairing links and share links are limited per member")
    func passesAreRateLimited() async throws {
        let live = try await LiveApp(visibility: .household)
        defer { Task { await live.stop() } }
        let owner = try await Self.owner(live)
        let token = try Self.csrf(try await owner.get("/kiosk/settings").body)
        var statuses: [Int] = []
        for index in 0..<12 {
            statuses.append(try await owner.post("/kiosk/pair", form: [("csrf", token), ("name", "Screen \(index)"), ("kiosk", "")]).status)
        }
        #expect(statuses.prefix(10).allSatisfy { $0 == 200 } && statuses.suffix(2).allSatisfy { $0 == 429 }, "\(statuses)")
    }

    @Test("a share link shows that one story, its photo and its preview to whoever has it; revoked, it answers as a link that never was")
    func shareLinkShowsOneStory() async throws {
        let live = try await LiveApp(visibility: .household)
        defer { Task { await live.stop() } }
        let backend = try #require(live.app.backend)
        let canaries = try Walk.Canaries(backend)
        let maya = try #require(try backend.store.accounts.account("maya.home.test"))
        let mine = try #require(try backend.queries.stories(of: maya.did, viewer: nil, imageBase: "").stories.first)
        let uri = try ATURI(mine.uri)
        let owner = try await Self.owner(live)
        let sharesPath = "/profile/\(maya.did.rawValue)/story/\(uri.rkey)/shares"
        let story = try await owner.get("/profile/\(maya.did.rawValue)/story/\(uri.rkey)")
        #expect(story.body.contains("data-share-link"), "the author's viewer offers a share link")
        let list = try await owner.get(sharesPath)
        let made = try await owner.post(sharesPath, form: [("csrf", try Self.csrf(list.body)), ("action", "create")])
        let link = try #require(captures(#"value="https?://[^"]+(/s/[^"]+)""#, in: made.body).first, "\(made.status)")

        let stranger = Browser(base: live.base)
        let page = try await stranger.get(link)
        #expect(page.status == 200 && page.body.contains("data-shared-photo") && page.body.contains(link + "/preview.jpg"))
        // The story's author and nothing of anyone else.
        let itself = String(decoding: try JSONEncoder().encode(mine), as: UTF8.self)
        let others = canaries.words.filter { !itself.contains($0) && page.body.contains($0) && !link.contains($0) }
        #expect(others.isEmpty, "the shared page shows only its story: \(others)")
        let photo = try await stranger.get(link + "/photo.jpg")
        #expect(photo.status == 200 && photo.contentType?.hasPrefix("image/") == true)
        let preview = try await stranger.get(link + "/preview.jpg")
        #expect(preview.status == 200 && preview.contentType == "image/jpeg")
        #expect(try await stranger.get("/profile/\(maya.did.rawValue)/story/\(uri.rkey)").status == 302, "the link opens nothing else")

        let listed = try await owner.get(sharesPath)
        let id = try #require(captures(#"name="share" value="([^"]+)""#, in: listed.body).first)
        let revoked = try await owner.post(sharesPath, form: [("csrf", try Self.csrf(listed.body)), ("action", "revoke"), ("share", id)])
        #expect(revoked.status == 200 && !revoked.body.contains(id))
        let gone = try await stranger.get(link)
        let never = try await stranger.get("/s/never-was-a-token")
        #expect(gone.status == 404 && Self.withoutID(gone.body) == Self.withoutID(never.body), "a revoked link tells nothing")
        #expect(try await stranger.get(link + "/photo.jpg").status == 404)
    }
}
