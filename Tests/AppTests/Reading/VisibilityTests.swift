import ATProto
import Foundation
import HTTPServer
import HatkClient
import Lexicon
import Readers
import Synchronization
import TestSupport
import Testing

@testable import App

/// What each visitor may be shown: label decisions from the upstream's definitions (Grain's when it has none), warned
/// stories behind their bar, hidden ones nowhere, and muted or blocked authors out of the walk even when the upstream
/// leaves them in.
@Suite struct VisibilityTests {
    static func label(_ value: String, on uri: String) -> Label {
        Label(src: "did:plc:labeler", uri: uri, cid: nil, val: value, cts: "2026-12-01T11:00:00.000Z")
    }

    static func labelled(_ front: FrontHarness, _ did: DID, index: Int, _ value: String) {
        front.stories.update(did, story: index) { $0.labels = [label(value, on: $0.uri)] }
    }

    struct Items: Decodable {
        struct Item: Decodable {
            var uri: String
            var image: String
            var reveal: String?
            var warning: Warning?
            var badge: String?
        }
        struct Warning: Decodable {
            var name: String
            var content: Bool
        }
        var items: [Item]
    }

    func items(_ front: FrontHarness, _ did: DID) async throws -> [Items.Item] {
        let answer = await front.page(SiteURL.storiesData(actor: did.rawValue).path)
        return try JSONDecoder().decode(Items.self, from: Data(answer.text.utf8)).items
    }

    @Test("a warned story shows its stand-in with the warning; its photo is only in reveal; a hide-severity one is left out")
    func warnedAndHidden() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 3, now: front.clock.now)
        Self.labelled(front, maya, index: 0, "nudity")
        Self.labelled(front, maya, index: 1, "spam")
        let stories = try await items(front, maya)
        #expect(stories.count == 2, "spam is hide-severity in Grain's definitions")
        let warned = try #require(stories.first)
        #expect(warned.warning?.name == "Nudity" && warned.warning?.content == false)
        #expect(warned.image == SiteURL.storyBlurred(did: maya.rawValue, rkey: front.stories.story(maya, 0).rkey).path)
        #expect(warned.reveal == front.stories.story(maya, 0).fullsize)
        // The story before the warned one preloads the stand-in only; the page never names the photo.
        let photo = front.stories.story(maya, 0).fullsize
        let page = await front.page(SiteURL.story(did: maya.rawValue, rkey: front.stories.story(maya, 0).rkey).path)
        #expect(page.status == .ok && !page.text.contains(#"src="\#(photo)""#) && page.text.contains("viewer__photo--blurred"))
        let hidden = await front.page(SiteURL.story(did: maya.rawValue, rkey: front.stories.story(maya, 1).rkey).path)
        #expect(hidden.status == .notFound)
        // Show (without scripts): the same page with the photo.
        let shown = await front.page(SiteURL.story(did: maya.rawValue, rkey: front.stories.story(maya, 0).rkey).with([("show", "1")]))
        #expect(shown.text.contains(#"src="\#(photo)""#) && shown.text.contains("data-badge"))
    }

    @Test("label definitions come from the upstream's describeLabels, asked once an hour; without it Grain's apply, tried again later")
    func definitionsFromTheUpstream() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        front.stories.content.withLock {
            $0.labels = [LabelDefinition(identifier: "spoiler", severity: "inform", blurs: "content", defaultSetting: "warn")]
        }
        Self.labelled(front, maya, index: 0, "spoiler")
        Self.labelled(front, maya, index: 1, "nudity")
        let first = try await items(front, maya)
        #expect(first.map { $0.warning?.name } == ["spoiler", nil], "nudity is not this server's label")
        #expect(first.first?.warning?.content == true)
        _ = try await items(front, maya)
        #expect(front.stories.content.withLock { $0.labelReads } == 1, "cached")

        let second = try FrontHarness()
        let ines = second.stories.addAuthor(handle: "ines.home.test", count: 1, now: second.clock.now)
        second.stories.content.withLock { $0.labels = nil }
        Self.labelled(second, ines, index: 0, "nudity")
        #expect(try await items(second, ines).first?.warning?.name == "Nudity", "Grain's definitions when describeLabels fails")
        second.clock.advance(seconds: 301)
        _ = try await items(second, ines)
        #expect(second.stories.content.withLock { $0.labelReads } == 2, "asked again after five minutes")
    }

    @Test("an author whose stories are all hidden is skipped: /stories goes on to the next author, or home past the last")
    func skipsAnAuthorWithNothingToShow() async throws {
        let front = try FrontHarness()
        let ines = front.stories.addAuthor(handle: "ines.home.test", count: 1, now: front.clock.now, minutesAgo: 30)
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 1, now: front.clock.now, minutesAgo: 20)
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now, minutesAgo: 10)
        Self.labelled(front, jonas, index: 0, "!hide")
        // Strip order: maya, jonas, ines. Opening jonas lands on ines's story.
        let skipped = await front.page(SiteURL.stories(actor: jonas.rawValue).path)
        #expect(skipped.location?.hasPrefix(SiteURL.story(did: ines.rawValue, rkey: front.stories.story(ines, 0).rkey).path) == true)
        let back = await front.page(SiteURL.stories(actor: jonas.rawValue).with([("at", "last")]))
        #expect(back.location?.hasPrefix(SiteURL.story(did: maya.rawValue, rkey: front.stories.story(maya, 0).rkey).path) == true)
        Self.labelled(front, ines, index: 0, "!hide")
        let end = await front.page(SiteURL.stories(actor: jonas.rawValue).with([("from", "/profile/x")]))
        #expect(end.location == "/profile/x")
        let data = await front.page(SiteURL.storiesData(actor: jonas.rawValue).path)
        #expect(data.status == .ok && data.text.contains(#""items":[]"#), "the script viewer skips on an empty list")
    }

    @Test("the kiosk plays no warned or hidden story unless its address says warned=show")
    func kiosk() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 3, now: front.clock.now)
        Self.labelled(front, maya, index: 0, "sexual")
        Self.labelled(front, maya, index: 1, "gore")
        let warned = front.stories.story(maya, 0)
        let plain = await front.page(SiteURL.kioskData.path)
        #expect(!plain.text.contains(warned.uri) && !plain.text.contains(front.stories.story(maya, 1).uri))
        #expect(plain.text.contains(front.stories.story(maya, 2).uri))
        let optedIn = await front.page(SiteURL.kioskData.with([("warned", "show")]))
        #expect(optedIn.text.contains(warned.uri) && optedIn.text.contains(warned.fullsize))
        #expect(!optedIn.text.contains(front.stories.story(maya, 1).uri), "hidden stays hidden")
        let page = await front.page(SiteURL.kiosk.with([("warned", "show")]))
        #expect(page.text.contains("/api/kiosk?warned=show"), "the page keeps its choice for the script")
    }

    @Test("muted and blocked authors leave the strip, the walk and the kiosk even when the upstream leaves them in")
    func relationships() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let ines = front.stories.addAuthor(handle: "ines.home.test", count: 1, now: front.clock.now)
        let kim = front.stories.addAuthor(handle: "kim.home.test", count: 1, now: front.clock.now)
        let jonasDID = "did:plc:" + String(repeating: "j", count: 24)
        front.stories.content.withLock {
            $0.relationships[jonasDID] = ViewerRelationships(muted: [maya.rawValue], blockedBy: [ines.rawValue])
            // An upstream that filters nothing, so only the front's own filtering can leave them out.
            $0.stripFiltered = false
        }
        let jonas = try front.visitor("jonas.home.test")
        let home = await jonas.get(SiteURL.home.path)
        #expect(!home.text.contains(maya.rawValue) && !home.text.contains(ines.rawValue) && home.text.contains(kim.rawValue))
        let kiosk = await jonas.get(SiteURL.kioskData.path)
        #expect(!kiosk.text.contains(maya.rawValue) && !kiosk.text.contains(ines.rawValue) && kiosk.text.contains(kim.rawValue))
        let story = await jonas.get(SiteURL.story(did: kim.rawValue, rkey: front.stories.story(kim, 0).rkey).path)
        let walk = try #require(story.capture(#""authors":\[([^\]]*)\]"#))
        #expect(!walk.contains(maya.rawValue) && !walk.contains(ines.rawValue))
        // Blocked either way: refused even by link; muted: still there when asked for on purpose.
        #expect(await jonas.get(SiteURL.story(did: ines.rawValue, rkey: front.stories.story(ines, 0).rkey).path).status == .notFound)
        #expect(await jonas.get(SiteURL.storiesData(actor: ines.rawValue).path).status == .notFound)
        #expect(await jonas.get(SiteURL.storiesData(actor: maya.rawValue).path).status == .ok)
        let profile = await jonas.get(SiteURL.profile(actor: ines.rawValue).path)
        #expect(profile.text.contains("data-blocked-note") && profile.text.contains("This account blocks you."))
        let muted = await jonas.get(SiteURL.profile(actor: maya.rawValue).path)
        #expect(muted.text.contains("data-unmute") && muted.text.contains("data-muted-note"))
    }

    @Test("a permalink carries Open Graph and Twitter card tags on the origin the visitor used")
    func linkPreviewTags() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let rkey = front.stories.story(maya, 0).rkey
        let page = await front.send(.get, SiteURL.story(did: maya.rawValue, rkey: rkey).path, host: "localhost:8080")
        let image = "http://localhost:8080" + SiteURL.storyPreview(did: maya.rawValue, rkey: rkey).path
        #expect(page.text.contains(#"<meta property="og:image" content="\#(image)">"#))
        #expect(page.text.contains(#"<meta name="twitter:card" content="summary_large_image">"#))
        #expect(page.text.contains(#"<meta property="og:title" content="Story by @maya.home.test">"#))
    }
}
