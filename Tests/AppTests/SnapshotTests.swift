import ATProto
import Foundation
import FrontState
import HTMLRendering
import HTTPServer
import Lexicon
import TestSupport
import Testing

@testable import App

/// The strip, the viewer and the profile rendered from fixed models and compared with the files in
/// `__Snapshots__`. Run with `SNAPSHOT_RECORD=1` to rewrite them after an intended change, and review the diff.
struct SnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")

    func renderer() throws -> PageRenderer {
        PageRenderer(
            templates: try TemplateRenderer(directory: repositoryRoot.appendingPathComponent("Templates").path),
            assets: try StaticFiles(root: repositoryRoot.appendingPathComponent("Public").path))
    }

    /// Nonces are random and asset fingerprints follow file contents: neither belongs in a snapshot.
    func normalized(_ response: Response) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        var html = String(decoding: bytes, as: UTF8.self)
        for (pattern, replacement) in [(#"nonce="[^"]+""#, #"nonce="NONCE""#), (#"\.[0-9a-f]{8}\.(css|js)"#, ".FINGERPRINT.$1")] {
            html = html.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return html
    }

    func assertSnapshot(_ name: String, _ html: String) throws {
        let file = Self.directory.appendingPathComponent(name + ".html")
        if ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1" {
            try html.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try #require(try? String(contentsOf: file, encoding: .utf8), "missing snapshot \(name); record with SNAPSHOT_RECORD=1")
        #expect(html == expected, "snapshot \(name) differs; if intended, record again with SNAPSHOT_RECORD=1")
    }

    static let maya = ProfileView(
        cid: "bafyreib", did: "did:plc:maya", handle: "maya.home.test", displayName: "Maya <Costa>",
        avatar: "http://x.test/img/avatar/did:plc:maya/bafkreia")
    static let jonas = ProfileView(cid: "", did: "did:plc:jonas", handle: "jonas.home.test")

    static func story(_ rkey: String, by creator: ProfileView, hoursAgo: Double, now: UTCTime) -> StoryView {
        var view = StoryView(
            uri: "at://\(creator.did)/social.grain.story/\(rkey)", cid: "bafyrei\(rkey)", creator: creator,
            thumb: "http://x.test/img/feed_thumbnail/\(creator.did)/\(rkey)", fullsize: "http://x.test/img/feed_fullsize/\(creator.did)/\(rkey)",
            aspectRatio: AspectRatio(width: 3, height: 4), createdAt: now.adding(seconds: -hoursAgo * 3600).iso8601)
        view.locationDisplay = rkey == "b" ? "Lisbon, PT" : nil
        view.expired = false
        view.commentCount = 0  // getStories' hydrated view says how many
        return view
    }

    @Test("the strip renders as recorded")
    func strip() throws {
        let model = HomePage.Model(
            you: HomePage.YourStory(createHref: "/create", viewHref: nil, avatar: nil),
            authors: [
                AuthorTile(profile: Self.maya, storyCount: 2, href: "/stories/did:plc:maya", latestAt: "2026-08-19T11:00:00.000Z"),
                AuthorTile(profile: Self.jonas, storyCount: 1, href: "/stories/did:plc:jonas", seen: true, latestAt: "2026-08-19T10:00:00.000Z"),
            ],
            signedIn: false, durationMs: 5000, shell: StoryPage.shell(durationMs: 5000, csrf: nil, signedIn: false))
        try assertSnapshot("strip", normalized(try renderer().render("home", title: "Stories", model: model, context: nil)))
    }

    @Test("the viewer renders as recorded")
    func viewer() throws {
        let now = UTCTime(iso8601: "2026-08-19T12:00:00.000Z")!
        let stories = ["a", "b", "c"].enumerated().map { Self.story($1, by: Self.maya, hoursAgo: Double(10 - $0 * 3), now: now) }
        let model = StoryPage.model(
            stories, index: 1, authors: [Self.maya.did, "did:plc:jonas"], close: "/", seen: SeenState(), viewer: nil,
            durationMs: 5000, now: now)
        try assertSnapshot(
            "viewer",
            normalized(
                try renderer().render("story", title: "Maya’s story", model: model, scripts: ["js/viewer.js"], bodyClass: "viewer-page", context: nil)
            ))
    }

    static func clip(_ rkey: String, by creator: ProfileView, hoursAgo: Double, now: UTCTime, ms: Int) -> StoryView {
        var view = story(rkey, by: creator, hoursAgo: hoursAgo, now: now)
        view.video = StoryVideo(url: "http://x.test/img/feed_fullsize/\(creator.did)/clip\(rkey)", durationMs: ms)
        return view
    }

    @Test("a clip in the viewer renders as recorded: a video with controls over its poster, for pages without scripts")
    func viewerClip() throws {
        let now = UTCTime(iso8601: "2026-08-19T12:00:00.000Z")!
        let stories = [
            Self.story("a", by: Self.maya, hoursAgo: 10, now: now), Self.clip("b", by: Self.maya, hoursAgo: 7, now: now, ms: 12_000),
        ]
        let model = StoryPage.model(
            stories, index: 1, authors: [Self.maya.did], close: "/", seen: SeenState(), viewer: nil, durationMs: 5000, now: now)
        try assertSnapshot(
            "viewer-clip",
            normalized(
                try renderer().render("story", title: "Maya’s story", model: model, scripts: ["js/viewer.js"], bodyClass: "viewer-page", context: nil)
            ))
    }

    @Test("Today's grid renders as recorded, a clip's tile with its length")
    func today() throws {
        let now = UTCTime(iso8601: "2026-08-19T12:00:00.000Z")!
        var model = HomePage.Model(
            you: nil, authors: [AuthorTile(profile: Self.maya, storyCount: 2, href: "/stories/did:plc:maya", latestAt: "2026-08-19T11:00:00.000Z")],
            signedIn: false, durationMs: 5000, shell: StoryPage.shell(durationMs: 5000, csrf: nil, signedIn: false))
        model.today = TodayGrid.tiles(
            [[Self.story("a", by: Self.maya, hoursAgo: 3, now: now), Self.clip("b", by: Self.maya, hoursAgo: 1, now: now, ms: 12_000)]],
            filter: .anonymous, seen: SeenState(), viewer: nil, now: now)
        let html = normalized(try renderer().render("home", title: "Stories", model: model, context: nil))
        // The grid alone: the strip around it has its own snapshot.
        let start = try #require(html.range(of: "<section class=\"today\""))
        let end = try #require(html.range(of: "</section>", range: start.upperBound..<html.endIndex))
        try assertSnapshot("today", String(html[start.lowerBound..<end.upperBound]) + "\n")
    }

    @Test("the kiosk on a clip renders as recorded: the clip plays muted over its poster without scripts")
    func kioskClip() throws {
        let now = UTCTime(iso8601: "2026-08-19T12:00:00.000Z")!
        let slide = KioskPage.slide(
            Self.clip("b", by: Self.maya, hoursAgo: 1, now: now, ms: 12_000), index: 0, count: 1, now: now, visibility: .anonymous,
            showWarned: false)
        let model = KioskPage.model([slide], index: 0, options: KioskOptions(), durationMs: 5000)
        try assertSnapshot(
            "kiosk-clip",
            normalized(try renderer().render("kiosk", title: "Kiosk", model: model, scripts: ["js/kiosk.js"], bodyClass: "kiosk-page", context: nil)))
    }

    @Test("the profile renders as recorded")
    func profile() throws {
        let model = ProfilePage.Model(
            author: AuthorTile(profile: Self.maya, storyCount: 2, href: "/profile/maya.home.test"), description: "Photos & <b>things</b>",
            hasStories: true, storiesHref: "/stories/did:plc:maya?from=/profile/maya.home.test", storySummary: "2 active stories",
            archive: [
                ProfilePage.ArchiveItem(
                    href: "/profile/did:plc:maya/story/a", thumb: "http://x.test/t/a", alt: "Story posted 3 hours ago", expired: false),
                ProfilePage.ArchiveItem(
                    href: "/profile/did:plc:maya/story/z", thumb: "http://x.test/t/z", alt: "Story posted on Aug 17", expired: true),
                ProfilePage.ArchiveItem(
                    href: "/profile/did:plc:maya/story/v", thumb: "http://x.test/t/v", alt: "Story posted on Aug 16", expired: true,
                    clip: ClipBadge(milliseconds: 9_000)),
            ],
            shell: StoryPage.shell(durationMs: 5000, csrf: nil, signedIn: false))
        try assertSnapshot("profile", normalized(try renderer().render("profile", title: "Maya", model: model, context: nil)))
    }
}
