import ATProto
import Foundation
import HTTPServer
import HatkClient
import Lexicon
import QRCode
import TestSupport
import Testing

@testable import App

/// Kiosk 2.0 on the server side: the options its address carries, the settings page that builds that address, the
/// QR codes, and memories between today's stories.
@Suite struct KioskOptionsTests {
    @Test("a story's QR code is the SVG of its permalink on the origin the kiosk uses, and runs nothing")
    func storyQR() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let story = front.stories.story(maya, 0)
        let answer = await front.page(SiteURL.storyQR(did: maya.rawValue, rkey: story.rkey).path)
        #expect(answer.status == .ok && answer.headers["Content-Type"] == "image/svg+xml")
        #expect(answer.headers["Content-Security-Policy"] == "default-src 'none'")
        let permalink = "http://box.local:8080" + SiteURL.story(did: maya.rawValue, rkey: story.rkey).path
        #expect(answer.text == (try QRCode(permalink)).svg(title: "Open this story on your phone"))
        #expect(await front.page("/profile/not-a-did/story/3k/qr.svg").status == .notFound)
        // The kiosk's playlist names each story's code.
        let playlist = await front.page(SiteURL.kioskData.path)
        #expect(playlist.text.contains(#""qr":"\#(SiteURL.storyQR(did: maya.rawValue, rkey: story.rkey).path)""#))
    }

    @Test("the settings page turns its form into the kiosk's address, links it and shows its QR code; no script needed")
    func settingsPage() async throws {
        let front = try FrontHarness()
        let page = await front.page(
            "/kiosk/settings?authors=maya.home.test&memories=1&clock=1&overlay=0&pair=1&night_start=22%3A00&night_end=07%3A00")
        #expect(page.status == .ok)
        let path = "/kiosk?authors=maya.home.test&memories=1&night=22:00-07:00&clock=1&overlay=0"
        let escaped = path.replacingOccurrences(of: "&", with: "&amp;")
        #expect(page.text.contains(#"<a href="\#(escaped)" data-kiosk-address>http://box.local:8080\#(escaped)</a>"#))
        let qr = "/kiosk/qr.svg?authors=maya.home.test&amp;memories=1&amp;night=22:00-07:00&amp;clock=1&amp;overlay=0"
        #expect(page.text.contains(#"<img class="kiosk-settings__qr" src="\#(qr)""#))
        #expect(page.text.contains(#"<form method="get" action="/kiosk/settings""#) && !page.text.contains("<script src=\"/js/"))
        #expect(page.text.contains(#"name="night_start" type="time" value="22:00""#))
        #expect(page.text.contains(#"<option value="0" selected>Hidden</option>"#))
        let code = await front.page(
            "/kiosk/qr.svg?authors=maya.home.test&memories=1&night=22:00-07:00&clock=1&overlay=0")
        #expect(code.text == (try QRCode("http://box.local:8080" + path)).svg(title: "This kiosk's address"))
    }

    @Test("the kiosk page carries its options for the script; the playlist address keeps only what it needs")
    func kioskPage() async throws {
        let front = try FrontHarness()
        front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        let page = await front.page("/kiosk?memories=1&night=22:00-07:00&clock=1&overlay=0&pair=0")
        #expect(page.text.contains(#"data-src="/api/kiosk?memories=1""#))
        #expect(page.text.contains(#"data-night="22:00-07:00" data-clock="true" data-overlay="off" data-pair="false""#))
        #expect(page.text.contains("url=/kiosk?memories=1&amp;night=22:00-07:00&amp;clock=1&amp;overlay=0&amp;pair=0&amp;i=1"))
        #expect(page.text.contains("data-kiosk-qr><img src=\"/profile/"))
        // Malformed options fall back to the defaults.
        let plain = await front.page("/kiosk?night=25:00-07:00&clock=yes")
        #expect(plain.text.contains(#"data-night="" data-clock="false" data-overlay="on" data-pair="true""#))
        #expect(KioskOptions.Night("22:00-22:00") == nil && KioskOptions.Night("7:00-9:00") == nil)
        #expect(KioskOptions.Night("23:30-06:15").map { [$0.start, $0.end] } == [1410, 375])
    }

    @Test("memories=1 puts a signed-in member's memories between today's stories; a tablet nobody signed in on gets none")
    func memoriesInTheLoop() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 4, now: front.clock.now)
        let old = front.stories.addArchived(maya, createdAt: "2025-12-01T09:00:00.000Z")
        let older = front.stories.addArchived(maya, createdAt: "2024-12-01T09:00:00.000Z")
        struct Playlist: Decodable {
            struct Slide: Decodable {
                struct Item: Decodable { var uri: String }
                var item: Item
                var memory: String?
            }
            var slides: [Slide]
        }
        let kim = try front.visitor("kim.home.test")
        let answer = await kim.get(SiteURL.kioskData.with([("memories", "1")]))
        let slides = try JSONDecoder().decode(Playlist.self, from: Data(answer.text.utf8)).slides
        let today = (0..<4).map { front.stories.story(maya, $0).uri }
        #expect(slides.map(\.item.uri) == [today[0], today[1], old.uri, today[2], today[3], older.uri])
        #expect(slides.map(\.memory) == [nil, nil, "1 year ago", nil, nil, "2 years ago"])
        let without = await kim.get(SiteURL.kioskData.path)
        #expect(!without.text.contains(old.uri))
        let anonymous = await front.page(SiteURL.kioskData.with([("memories", "1")]))
        #expect(!anonymous.text.contains(old.uri) && anonymous.text.contains(today[0]))
    }

    @Test("memories spread evenly; with nothing from today they are the whole loop")
    func interleave() {
        let slide = { (uri: String) in
            KioskPage.Slide(
                item: StoryItem.blank, author: AuthorTile(profile: ProfileView(cid: "", did: "", handle: ""), storyCount: 0, href: ""),
                qr: uri, memory: nil)
        }
        let today = (0..<5).map { slide("t\($0)") }
        let memories = (0..<2).map { slide("m\($0)") }
        #expect(KioskPage.interleave(today, memories: memories).map(\.qr) == ["t0", "t1", "m0", "t2", "t3", "m1", "t4"])
        #expect(KioskPage.interleave([], memories: memories).map(\.qr) == ["m0", "m1"])
        #expect(KioskPage.interleave(today, memories: []).map(\.qr) == today.map(\.qr))
    }
}
