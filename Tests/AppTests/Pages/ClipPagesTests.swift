import ATProto
import Foundation
import FrontState
import Lexicon
import Testing

@testable import App

/// Issue 27: what the pages and the scripts' JSON say of a story whose media is a clip, and that a photo's say
/// nothing new.
struct ClipPagesTests {
    static let now = UTCTime(iso8601: "2026-08-19T12:00:00.000Z")!
    static let maya = ProfileView(cid: "", did: "did:plc:maya", handle: "maya.home.test", displayName: "Maya")

    static func story(_ rkey: String, clipMs: Int? = nil) -> StoryView {
        var view = StoryView(
            uri: "at://did:plc:maya/social.grain.story/\(rkey)", cid: "bafyrei\(rkey)", creator: maya,
            thumb: "/img/feed_thumbnail/did:plc:maya/\(rkey)", fullsize: "/img/feed_fullsize/did:plc:maya/poster-\(rkey)",
            aspectRatio: AspectRatio(width: 16, height: 9), createdAt: now.adding(seconds: -7200).iso8601)
        view.video = clipMs.map { StoryVideo(url: "/img/feed_fullsize/did:plc:maya/clip-\(rkey)", durationMs: $0) }
        return view
    }

    func item(_ story: StoryView, decision: LabelDecision = .none, revealed: Bool = false) -> StoryItem {
        StoryItem(
            story, index: 0, count: 1, href: "/s", seen: false, mine: false, now: Self.now, decision: decision, revealed: revealed)
    }

    func json(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value)) as? [String: Any])
    }

    @Test("a clip's length reads as minutes and seconds, rounded to the nearest second and never 0:00")
    func lengths() {
        #expect(ClipLength.label(12_000) == "0:12")
        #expect(ClipLength.label(12_499) == "0:12")
        #expect(ClipLength.label(12_500) == "0:13")
        #expect(ClipLength.label(6_000) == "0:06")
        #expect(ClipLength.label(15_000) == "0:15")
        #expect(ClipLength.label(65_000) == "1:05")
        #expect(ClipLength.label(300) == "0:01")
        #expect(ClipLength.spoken(12_000) == "Video, 12 seconds")
        #expect(ClipLength.spoken(800) == "Video, 1 second")
    }

    @Test("a clip's item carries its MP4, its length and its badge, and says Video; its image is the poster")
    func clipItem() throws {
        let item = item(Self.story("a", clipMs: 12_000))
        #expect(item.video == "/img/feed_fullsize/did:plc:maya/clip-a")
        #expect(item.durationMs == 12_000)
        #expect(item.clip == ClipBadge(milliseconds: 12_000))
        #expect(item.clip?.label == "0:12" && item.clip?.spoken == "Video, 12 seconds")
        #expect(item.image == "/img/feed_fullsize/did:plc:maya/poster-a")
        #expect(item.alt == "Video by Maya, 2 hours ago")
        let encoded = try json(item)
        #expect(encoded["video"] as? String == "/img/feed_fullsize/did:plc:maya/clip-a")
        #expect(encoded["durationMs"] as? Int == 12_000)
        #expect((encoded["clip"] as? [String: String]) == ["label": "0:12", "spoken": "Video, 12 seconds"])
    }

    @Test("a photo's item has no clip fields at all, in the model or in the JSON the scripts read")
    func photoItem() throws {
        let item = item(Self.story("b"))
        #expect(item.video == nil && item.durationMs == nil && item.clip == nil)
        #expect(item.alt == "Photo by Maya, 2 hours ago")
        let encoded = try json(item)
        #expect(encoded["video"] == nil && encoded["durationMs"] == nil && encoded["clip"] == nil)
    }

    @Test("a warned clip shows its blurred stand-in and does not say what it shows; its MP4 waits for Show")
    func warnedClip() {
        let warned = item(Self.story("c", clipMs: 6_000), decision: LabelDecision(action: .warnMedia, label: "nudity", name: "Nudity"))
        #expect(warned.warning?.name == "Nudity")
        #expect(warned.alt == "Hidden video (Nudity), by Maya, 2 hours ago")
        #expect(warned.image == SiteURL.storyBlurred(did: "did:plc:maya", rkey: "c").path)
        #expect(warned.reveal == "/img/feed_fullsize/did:plc:maya/poster-c")
        #expect(warned.video == "/img/feed_fullsize/did:plc:maya/clip-c")
    }

    @Test("Today's tiles of clips carry the badge and say Video; photos' tiles carry none")
    func todayTiles() {
        let tiles = TodayGrid.tiles(
            [[Self.story("a", clipMs: 12_000), Self.story("b")]], filter: .anonymous, seen: SeenState(), viewer: nil, now: Self.now)
        let clip = tiles.first { $0.uri.hasSuffix("/a") }
        let photo = tiles.first { $0.uri.hasSuffix("/b") }
        #expect(clip?.clip?.label == "0:12" && clip?.clip?.spoken == "Video, 12 seconds")
        #expect(clip?.alt == "Video by Maya, 2 hours ago")
        #expect(photo?.clip == nil)
        #expect(photo?.alt == "Photo by Maya, 2 hours ago")
    }

    @Test("memories' tiles of clips carry the badge")
    func memoryTiles() {
        let model = MemoriesPage.model(
            [Memories.Group(years: 1, stories: [Self.story("a", clipMs: 9_400), Self.story("b")])], filter: .anonymous, now: Self.now)
        let tiles = model?.sections.first?.tiles ?? []
        #expect(tiles.map(\.clip?.label) == ["0:09", nil])
        #expect(tiles.first?.alt == "Video by Maya, 1 year ago")
    }

    @Test("the kiosk's slide JSON carries the clip; its page without scripts waits for the whole clip")
    func kioskSlides() throws {
        let clip = KioskPage.slide(Self.story("a", clipMs: 12_300), index: 0, count: 2, now: Self.now, visibility: .anonymous, showWarned: false)
        let photo = KioskPage.slide(Self.story("b"), index: 1, count: 2, now: Self.now, visibility: .anonymous, showWarned: false)
        let encoded = try json(KioskPage.Playlist(slides: [clip, photo]))
        let slides = try #require(encoded["slides"] as? [[String: Any]])
        let first = try #require(slides.first?["item"] as? [String: Any])
        let second = try #require(slides.last?["item"] as? [String: Any])
        #expect(first["video"] as? String == "/img/feed_fullsize/did:plc:maya/clip-a")
        #expect(first["durationMs"] as? Int == 12_300)
        #expect(second["video"] == nil)
        let onClip = KioskPage.model([clip, photo], index: 0, options: KioskOptions(), durationMs: 5000)
        let onPhoto = KioskPage.model([clip, photo], index: 1, options: KioskOptions(), durationMs: 5000)
        #expect(onClip.durationSeconds == 13)
        #expect(onPhoto.durationSeconds == 5)
        #expect(onClip.durationMs == 5000)
    }

    @Test("the story page's viewer data carries each clip, and its link preview says Video story")
    func storyPage() throws {
        let stories = [Self.story("a"), Self.story("b", clipMs: 6_000)]
        let model = StoryPage.model(
            stories, index: 1, authors: [], close: "/", seen: SeenState(), viewer: nil, durationMs: 5000, now: Self.now)
        #expect(model.item.video == "/img/feed_fullsize/did:plc:maya/clip-b")
        let data = try json(model.data)
        let items = try #require(data["items"] as? [[String: Any]])
        #expect(items.map { $0["video"] as? String } == [nil, "/img/feed_fullsize/did:plc:maya/clip-b"])
        #expect(items.map { $0["durationMs"] as? Int } == [nil, 6_000])
        let description = StoryPage.linkPreview(model, origin: "https://home.test").first { $0.property == "og:description" }
        #expect(description?.content == "Video story on grain stories")
    }
}
