import ATProto
import Foundation
import FrontState
import Imaging
import Lexicon
import Storage
import TestSupport
import Testing

@testable import App
@testable import Backend
@testable import Server

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Favourites, comments, reports, mute and block, activity, labels and link previews, end to end on a live server
/// over the embedded household: each form as a browser without scripts sends it, and each answer checked in the
/// backend's own state.
@Suite(.serialized)
struct SocialTests {
    struct Stories: Decodable {
        struct Item: Decodable {
            var uri: String
            var href: String
            var image: String
            var favHref: String
            var commentsHref: String
            var fav: String?
            var commentCount: Int
            var warning: Warning?
            var reveal: String?
            var revealHref: String?
        }
        struct Warning: Decodable { var name: String }
        struct Author: Decodable { var did: String }
        var author: Author
        var items: [Item]
    }

    func stories(_ browser: Browser, _ actor: String) async throws -> Stories {
        let page = try await browser.get("/api/stories/\(actor)")
        #expect(page.status == 200, "stories of \(actor): \(page.status)")
        return try JSONDecoder().decode(Stories.self, from: Data(page.body.utf8))
    }

    func signedIn(_ live: LiveApp, _ name: String) async throws -> Browser {
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "\(name).home.test", password: "\(name)-stories", next: "/")
        return browser
    }

    func csrf(_ browser: Browser) async throws -> String {
        if let token = browser.cookie("gs_csrf") { return token }
        _ = try await browser.get("/create")
        return try #require(browser.cookie("gs_csrf"))
    }

    func did(_ live: LiveApp, _ handle: String) throws -> DID {
        try #require(try live.app.backend?.store.accounts.account(handle)?.did)
    }

    @Test("a description posted with the photo is kept by the embedded backend and is its alt and caption for everyone, the kiosk included")
    func describedStory() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let maya = try await signedIn(live, "maya")
        let form = try await maya.get("/create")
        #expect(form.body.contains(#"name="description""#), "the embedded household keeps descriptions")
        let posted = try await maya.postMultipart(
            "/create", fields: [("csrf", try await csrf(maya)), ("description", "Ada’s first snowman"), ("caption", "on")],
            file: ("photo", "p.jpg", "image/jpeg", try gradientJPEG(width: 600, height: 800, seed: 9)))
        let path = try #require(posted.location, "posted: \(posted.status)")
        let jonas = try await signedIn(live, "jonas")
        let page = try await jonas.get(path)
        #expect(page.body.contains(#"alt="Ada’s first snowman""#))
        #expect(page.body.contains(#"data-caption>Ada’s first snowman</figcaption>"#))
        #expect(try await jonas.get("/api/kiosk").body.contains(#""alt":"Ada’s first snowman""#))
    }

    @Test("a favourite is written as the visitor, shows on the story, and is taken back; it works as a plain form")
    func favourite() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let maya = try await signedIn(live, "maya")
        let jonas = try await stories(maya, "jonas.home.test")
        let story = jonas.items[1]
        let token = try await csrf(maya)
        let posted = try await maya.post(story.favHref, form: [("csrf", token), ("return", story.href)])
        #expect(posted.status == 303)
        #expect(posted.location == story.href)
        let after = try await stories(maya, "jonas.home.test").items[1]
        let fav = try #require(after.fav, "viewer.fav comes back from the backend")
        #expect(fav.hasPrefix("at://") && fav.contains("/social.grain.favorite/"))
        let page = try await maya.get(story.href)
        #expect(page.body.contains(#"data-fav aria-pressed="true""#))
        // The backend has exactly one favourite of that story by maya.
        let mayaDID = try did(live, "maya.home.test")
        #expect(try live.app.backend?.store.social.favorite(by: mayaDID, of: story.uri)?.uri == fav)
        let undone = try await maya.post(story.favHref, form: [("csrf", token), ("fav", fav), ("return", story.href)])
        #expect(undone.status == 303)
        #expect(try await stories(maya, "jonas.home.test").items[1].fav == nil)
        #expect(try live.app.backend?.store.social.favorite(by: mayaDID, of: story.uri) == nil)
        // A favourite URI of someone else is refused, never deleted.
        let forged = try await maya.post(
            story.favHref, form: [("csrf", token), ("fav", "at://\(jonas.author.did)/social.grain.favorite/3kaaaaaaaaaaa")])
        #expect(forged.status == 400)
        // Anonymous visitors are sent to sign in.
        let anonymous = Browser(base: live.base)
        _ = try await anonymous.get("/login")
        let refused = try await anonymous.post(story.favHref, form: [("csrf", anonymous.cookie("gs_csrf") ?? "")])
        #expect(refused.status == 302 && refused.location?.hasPrefix("/login?next=") == true)
    }

    @Test("comments: posted with link and mention facets, listed on the no-script page and as JSON, counted, deleted by their author")
    func comments() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let maya = try await signedIn(live, "maya")
        let story = try await stories(maya, "jonas.home.test").items[2]
        let token = try await csrf(maya)
        let text = "Lovely! See https://example.com/a, @ines.home.test #sintra"
        let posted = try await maya.post(story.commentsHref, form: [("csrf", token), ("text", text)])
        #expect(posted.status == 303)
        let uri = try ATURI(story.uri)
        let thread = try #require(try live.app.backend?.queries.commentThread(subject: uri, viewer: nil, imageBase: ""))
        let comment = try #require(thread.comments.first)
        #expect(comment.text == text)
        let features = (comment.facets ?? []).compactMap { $0["features"]?.arrayFirst?["$type"]?.stringValue }
        #expect(features == ["app.bsky.richtext.facet#link", "app.bsky.richtext.facet#mention", "app.bsky.richtext.facet#tag"])
        let ines = try did(live, "ines.home.test")
        #expect(comment.facets?[1]["features"]?.arrayFirst?["did"]?.stringValue == ines.rawValue)
        // Byte offsets cover exactly the link.
        let link = try #require(comment.facets?.first?["index"])
        let bytes = Array(text.utf8)
        let start = Int(try #require(link["byteStart"]?.intValue))
        let end = Int(try #require(link["byteEnd"]?.intValue))
        #expect(String(decoding: bytes[start..<end], as: UTF8.self) == "https://example.com/a")

        let page = try await maya.get(story.commentsHref)
        #expect(page.status == 200)
        #expect(page.body.contains(#"<a href="https://example.com/a" rel="nofollow ugc noopener noreferrer">https://example.com/a</a>"#))
        #expect(page.body.contains(#"<a href="/profile/\#(ines.rawValue)">@ines.home.test</a>"#))
        #expect(page.body.contains("data-comment-delete"))
        #expect(try await stories(maya, "jonas.home.test").items[2].commentCount == 1)
        let data = try await maya.get("/api/comments/\(uri.authority)/\(uri.rkey)")
        #expect(data.status == 200 && data.body.contains(#""open":true"#) && data.body.contains(#""total":1"#))

        // Someone else sees it without a Delete; the author deletes it.
        let jonas = try await signedIn(live, "jonas")
        #expect(!(try await jonas.get(story.commentsHref)).body.contains("data-comment-delete"))
        let deleted = try await maya.post(
            story.commentsHref + "/delete", form: [("csrf", token), ("uri", comment.uri)])
        #expect(deleted.status == 303)
        #expect(try live.app.backend?.queries.commentThread(subject: uri, viewer: nil, imageBase: "").comments.isEmpty == true)
        // Too long, or empty: the form again with the reason.
        let long = try await maya.post(story.commentsHref, form: [("csrf", token), ("text", String(repeating: "a", count: 301))])
        #expect(long.status == 400 && long.body.contains("at most 300 characters"))
    }

    @Test("comments are closed on an expired story")
    func commentsClosedWhenExpired() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let maya = try await signedIn(live, "maya")
        let story = try await stories(maya, "maya.home.test").items[0]
        live.clock.advance(hours: 2)
        let token = try await csrf(maya)
        let page = try await maya.get(story.commentsHref)
        #expect(page.body.contains("data-comments-closed") && !page.body.contains("data-comment-form"))
        let refused = try await maya.post(story.commentsHref, form: [("csrf", token), ("text", "late")])
        #expect(refused.status == 403)
    }

    @Test("a report reaches the owner's review page, where the owner hides the story for everyone")
    func reportAndHide() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let store = try #require(live.app.backend?.store)
        let mayaDID = try did(live, "maya.home.test")
        try store.database.write { try $0.execute("UPDATE accounts SET role = 'owner' WHERE did = ?", [mayaDID.rawValue]) }
        let jonas = try await signedIn(live, "jonas")
        let ines = try await stories(jonas, "ines.home.test")
        let story = ines.items[0]
        let form = try await jonas.get("/report?story=\(story.uri)")
        #expect(form.status == 200)
        for reason in ["copyright", "gore", "harassment", "misleading", "nudity", "other", "sexual", "spam"] {
            #expect(form.body.contains(#"value="\#(reason)""#), "Grain's reason \(reason) is offered")
        }
        let token = try await csrf(jonas)
        let unknown = try await jonas.post("/report", form: [("csrf", token), ("story", story.uri), ("label", "nonsense")])
        #expect(unknown.status == 400)
        let sent = try await jonas.post(
            "/report", form: [("csrf", token), ("story", story.uri), ("label", "spam"), ("reason", "Not a photo of anything")])
        #expect(sent.status == 200 && sent.body.contains("data-report-done"))
        let reports = try store.moderation.reports(by: mayaDID)
        #expect(reports.count == 1 && reports.first?.label == "spam" && reports.first?.subjectURI == story.uri)
        // Only the owner sees the review page.
        #expect(try await jonas.get("/admin/reports").status == 403)
        let maya = try await signedIn(live, "maya")
        let review = try await maya.get("/admin/reports")
        #expect(review.status == 200 && review.body.contains("Not a photo of anything") && review.body.contains("@jonas.home.test"))
        let id = try #require(reports.first?.id)
        let ownerToken = try await csrf(maya)
        let hidden = try await maya.post("/admin/reports", form: [("csrf", ownerToken), ("id", String(id)), ("action", "hide")])
        #expect(hidden.status == 303)
        #expect(try await jonas.get(story.href).status == 404, "hidden for everyone")
        #expect(try await stories(jonas, "ines.home.test").items.map(\.uri) == ines.items.dropFirst().map(\.uri))
        #expect(try store.moderation.reports(by: mayaDID).isEmpty)
        // Without the form's token the owner's POST is refused.
        let forged = try await maya.post("/admin/reports", form: [("csrf", "nope"), ("id", String(id)), ("action", "hide")])
        #expect(forged.status == 403)
    }

    @Test("muted and blocked authors leave the strip and the walk; blocked ones' stories are refused; the list undoes both")
    func muteAndBlock() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let maya = try await signedIn(live, "maya")
        let jonasDID = try did(live, "jonas.home.test")
        let inesDID = try did(live, "ines.home.test")
        let token = try await csrf(maya)
        let inesStory = try await stories(maya, "ines.home.test").items[0]
        #expect(try await maya.post("/profile/\(jonasDID.rawValue)/mute", form: [("csrf", token)]).status == 303)
        #expect(try await maya.post("/profile/\(inesDID.rawValue)/block", form: [("csrf", token)]).status == 303)
        let home = try await maya.get("/")
        let strip = captures(#"data-story-author="(did:[^"]+)""#, in: home.body)
        #expect(!strip.contains(jonasDID.rawValue) && !strip.contains(inesDID.rawValue))
        // A muted author's stories can still be opened on purpose; a blocked one's cannot.
        #expect(try await maya.get("/api/stories/\(jonasDID.rawValue)").status == 200)
        #expect(try await maya.get("/api/stories/\(inesDID.rawValue)").status == 404)
        #expect(try await maya.get(inesStory.href).status == 404)
        let profile = try await maya.get("/profile/ines.home.test")
        #expect(profile.body.contains("data-blocked-note") && profile.body.contains("data-unblock"))
        // The kiosk of a signed-in visitor leaves them out too.
        let kiosk = try await maya.get("/api/kiosk")
        #expect(!kiosk.body.contains(jonasDID.rawValue) && !kiosk.body.contains(inesDID.rawValue))
        let list = try await maya.get("/muted")
        #expect(list.body.contains("Unmute") && list.body.contains("Unblock"))
        #expect(try await maya.post("/profile/\(jonasDID.rawValue)/mute", form: [("csrf", token), ("undo", "1")]).status == 303)
        #expect(try await maya.post("/profile/\(inesDID.rawValue)/block", form: [("csrf", token), ("undo", "1")]).status == 303)
        let again = captures(#"data-story-author="(did:[^"]+)""#, in: try await maya.get("/").body)
        #expect(again.contains(jonasDID.rawValue) && again.contains(inesDID.rawValue))
        #expect(try await maya.get(inesStory.href).status == 200)
    }

    @Test("activity lists who favourited and commented, the header counts what is new, and the page's form clears the count")
    func activity() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let maya = try await signedIn(live, "maya")
        let story = try await stories(maya, "jonas.home.test").items[1]
        let token = try await csrf(maya)
        _ = try await maya.post(story.favHref, form: [("csrf", token)])
        _ = try await maya.post(story.commentsHref, form: [("csrf", token), ("text", "So good")])
        let jonas = try await signedIn(live, "jonas")
        let home = try await jonas.get("/")
        #expect(home.body.contains(#"data-activity-count>2<"#))
        let activity = try await jonas.get("/activity")
        #expect(activity.status == 200)
        #expect(activity.body.contains("favourited your story") && activity.body.contains("commented on your story"))
        #expect(activity.body.contains("So good"))
        #expect(try await jonas.get("/").body.contains(#"data-activity-count>2<"#), "a GET changes nothing")
        let at = try #require(activity.body.firstMatch(of: #/name="at" value="([^"]+)"/#)?.1)
        let marked = try await jonas.post("/activity/seen", form: [("csrf", try await csrf(jonas)), ("at", String(at))])
        #expect(marked.status == 303)
        #expect(!(try await jonas.get("/").body.contains("data-activity-count")), "the page's form marked everything seen")
    }

    @Test(
        "a warned story opens blurred: its photo is in no src, preload or kiosk until asked for; Show shows it; previews blur it; gore hides it"
    )
    func warnings() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let maya = try await signedIn(live, "maya")
        let token = try await csrf(maya)
        let jpeg = try gradientJPEG(width: 600, height: 800, seed: 3)
        let posted = try await maya.postMultipart(
            "/create", fields: [("csrf", token), ("labels", "nudity")], file: ("photo", "p.jpg", "image/jpeg", jpeg))
        let path = try #require(posted.location)
        let anonymous = Browser(base: live.base)
        let data = try await stories(anonymous, "maya.home.test")
        let warned = try #require(data.items.last)
        #expect(warned.warning?.name == "Nudity")
        let photo = try #require(warned.reveal)
        #expect(warned.image.hasSuffix("/blurred.jpg"))
        let page = try await anonymous.get(path)
        #expect(page.status == 200)
        #expect(!page.body.contains(#"src="\#(photo)""#) && !page.body.contains(#"href="\#(photo)""#))
        let revealHref = try #require(warned.revealHref)
        #expect(page.body.contains("viewer__photo--blurred") && page.body.contains(#"href="\#(revealHref)""#))
        // The story before it preloads the stand-in, never the photo.
        let before = try await anonymous.get(data.items[data.items.count - 2].href)
        #expect(!before.body.contains(#"href="\#(photo)""#))
        let shown = try await anonymous.get(path + "?show=1")
        #expect(shown.body.contains(#"src="\#(photo)""#) && !shown.body.contains("viewer__photo--blurred"))
        // The kiosk leaves it out unless its address opts in.
        #expect(!(try await anonymous.get("/api/kiosk")).body.contains(warned.uri))
        #expect(try await anonymous.get("/api/kiosk?warned=show").body.contains(warned.uri))
        // Link previews: tags on the origin used, a blurred 1200×630 image.
        #expect(page.body.contains(#"<meta property="og:image" content="\#(live.base)\#(path)/preview.jpg">"#))
        let blurredPreview = try await anonymous.get(path + "/preview.jpg")
        #expect(blurredPreview.status == 200)
        let standIn = try await anonymous.get(warned.image)
        #expect(standIn.status == 200)

        let served = try await stories(anonymous, "maya.home.test").items.count
        let gore = try await maya.postMultipart(
            "/create", fields: [("csrf", try await csrf(maya)), ("labels", "gore")], file: ("photo", "g.jpg", "image/jpeg", jpeg))
        let told = try #require(gore.location)
        #expect(told.hasPrefix("/create?posted=hidden&story="), "the author is told where it went, not sent to a page that is not found")
        let createPage = try await maya.get(told).body
        #expect(createPage.contains("Grain shows it to nobody, you included"))
        let rkey = String(told.dropFirst("/create?posted=hidden&story=".count))
        let mayaDID = try did(live, "maya.home.test")
        #expect(createPage.contains("/profile/\(mayaDID.rawValue)/story/\(rkey)/delete"), "and can delete it from there")
        #expect(try await stories(anonymous, "maya.home.test").items.count == served, "gore is served to nobody")
        #expect(try await stories(maya, "maya.home.test").items.count == served, "not even its author")
    }

    @Test("a warned story's link preview is blurred (the photo's fine detail is gone, kept in the same photo unwarned); a hidden one has none")
    func previewIsBlurred() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let maya = try await signedIn(live, "maya")
        // A checkerboard of 6-pixel squares: all detail, which a blur turns to an even grey.
        var pixels = [UInt8](repeating: 0, count: 800 * 600 * 3)
        for y in 0..<600 {
            for x in 0..<800 where (x / 6 + y / 6) % 2 == 0 {
                let i = (y * 800 + x) * 3
                (pixels[i], pixels[i + 1], pixels[i + 2]) = (255, 255, 255)
            }
        }
        let jpeg = try Imaging.encodeJPEG(RGBImage(width: 800, height: 600, pixels: pixels), quality: 90)
        func post(_ labels: [String]) async throws -> String {
            let posted = try await maya.postMultipart(
                "/create", fields: [("csrf", try await csrf(maya))] + labels.map { ("labels", $0) }, file: ("photo", "c.jpg", "image/jpeg", jpeg))
            return try #require(posted.location)
        }
        func image(_ path: String) async throws -> (status: Int, image: RGBImage?) {
            let (data, response) = try await URLSession.shared.data(from: URL(string: live.base + path)!)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return (status, status == 200 ? try Imaging.decode([UInt8](data)) : nil)
        }
        /// The mean difference between horizontal neighbours: large for sharp detail, near 0 once blurred.
        func detail(_ image: RGBImage) -> Double {
            var sum = 0
            for y in 0..<image.height {
                for x in 1..<image.width {
                    let i = (y * image.width + x) * 3
                    sum += abs(Int(image.pixels[i + 1]) - Int(image.pixels[i - 2]))
                }
            }
            return Double(sum) / Double(image.height * (image.width - 1))
        }
        let plain = try #require(try await image(try await post([]) + "/preview.jpg").image)
        let warned = try #require(try await image(try await post(["nudity"]) + "/preview.jpg").image)
        #expect(plain.width == 1200 && plain.height == 630 && warned.width == 1200 && warned.height == 630)
        let (sharp, soft) = (detail(plain), detail(warned))
        #expect(sharp > 20, "the unwarned preview keeps the checkerboard: \(sharp)")
        #expect(soft < sharp / 10, "the warned one is blurred: \(soft) against \(sharp)")

        let gore = try await maya.postMultipart(
            "/create", fields: [("csrf", try await csrf(maya)), ("labels", "gore")], file: ("photo", "g.jpg", "image/jpeg", jpeg))
        let rkey = String(try #require(gore.location).dropFirst("/create?posted=hidden&story=".count))
        let hidden = "/profile/\(try did(live, "maya.home.test").rawValue)/story/\(rkey)"
        #expect(try await image(hidden + "/preview.jpg").status == 404, "no preview of a hidden story")
        #expect(try await image(hidden + "/blurred.jpg").status == 404)
        #expect(try await maya.get(hidden).status == 404)
    }

    @Test("the create form says what gore does, and offers Post to Bluesky only where the post can reach it")
    func createFormTellsTheTruth() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let maya = try await signedIn(live, "maya")
        let form = try await maya.get("/create")
        #expect(form.body.contains("Gore hides it from everyone on Grain"))
        #expect(!form.body.contains(#"name="crossPost""#), "the embedded household has no Bluesky")
        let story = try await stories(maya, "maya.home.test").items[0]
        #expect(!(try await maya.get(story.href + "?posted=bluesky")).body.contains("and to Bluesky"))
    }

    @Test("in the embedded household seen marks go to the backend's viewed state, batched, and new stories are new again")
    func viewedState() async throws {
        let live = try await LiveApp(configure: { _ in })
        defer { Task { await live.stop() } }
        let jonas = try await signedIn(live, "jonas")
        _ = try await jonas.get("/")
        #expect(live.app.front.seen.current == .upstream, "a signed-in getStoryAuthors carries unviewedCount")
        let maya = try await stories(jonas, "maya.home.test")
        for item in maya.items { _ = try await jonas.get(item.href) }
        // Not yet sent (the batch waits), yet the strip already counts them.
        let home = try await jonas.get("/")
        #expect(home.body.contains(#"data-story-author="\#(maya.author.did)" data-seen="true""#))
        let token = try await csrf(jonas)
        #expect(try await jonas.post("/api/seen", form: [("csrf", token), ("flush", "1")]).status == 204)
        let jonasDID = try did(live, "jonas.home.test")
        let authors = try #require(try live.app.backend?.queries.storyAuthors(viewer: jonasDID, imageBase: "").authors)
        #expect(authors.first { $0.profile.did == maya.author.did }?.unviewedCount == 0)
    }
}

extension JSONValue {
    var arrayFirst: JSONValue? {
        if case .array(let items) = self { return items.first }
        return nil
    }
}
