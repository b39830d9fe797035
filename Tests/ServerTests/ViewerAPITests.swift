import Foundation
import TestSupport
import Testing

@testable import App
@testable import Server

/// The JSON the script viewer and kiosk read, seen marks on the server, and the kiosk's framing rule.
@Suite(.serialized)
struct ViewerAPITests {
    struct Stories: Decodable {
        struct Item: Decodable { var uri: String; var image: String; var label: String; var seen: Bool; var href: String; var createdAt: String }
        var items: [Item]
        var start: Int
    }

    @Test("an author's stories come as JSON with positions; unknown authors get a JSON 404")
    func storiesJSON() async throws {
        let app = try await LiveApp()
        defer { Task { await app.stop() } }
        let page = try await app.get("/api/stories/maya.home.test")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "application/json")
        let data = try JSONDecoder().decode(Stories.self, from: Data(page.body.utf8))
        #expect(data.items.count == 4)
        #expect(data.items.map(\.label) == (1...4).map { "Story \($0) of 4" })
        #expect(data.start == 0 && data.items.allSatisfy { !$0.seen })
        let missing = try await app.get("/api/stories/nobody.home.test")
        #expect(missing.status == 404)
        #expect(missing.body.contains(#""error":"NotFound""#))
    }

    @Test("a signed-in visitor's seen marks are kept on the server: served pages and POSTs count, and reopening resumes")
    func serverSeen() async throws {
        let app = try await LiveApp()
        defer { Task { await app.stop() } }
        let browser = Browser(base: app.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "jonas.home.test", password: "jonas-stories", next: "/")
        let before = try JSONDecoder().decode(Stories.self, from: Data(try await browser.get("/api/stories/maya.home.test").body.utf8))
        // The first story is seen by serving its page, the second by the script's POST.
        _ = try await browser.get(before.items[0].href)
        let csrf = try #require(browser.cookie("gs_csrf"))
        let created = before.items[1].createdAt
        let marked = try await browser.post("/api/seen", form: [("uri", before.items[1].uri), ("createdAt", created), ("csrf", csrf)])
        #expect(marked.status == 204)
        let after = try JSONDecoder().decode(Stories.self, from: Data(try await browser.get("/api/stories/maya.home.test").body.utf8))
        #expect(after.items.map(\.seen) == [true, true, false, false])
        #expect(after.start == 2)
        let resume = try await browser.get("/stories/maya.home.test")
        #expect(resume.location?.contains(after.items[2].uri.split(separator: "/").last.map(String.init) ?? "-") == true)
        let forged = try await browser.post("/api/seen", form: [("uri", before.items[3].uri), ("createdAt", created), ("csrf", "nope")])
        #expect(forged.status == 403)
        let malformed = try await browser.post("/api/seen", form: [("uri", "https://evil.test/"), ("createdAt", created), ("csrf", csrf)])
        #expect(malformed.status == 400)
    }

    @Test("the kiosk lists every active story of the listed authors, and shows a calm empty state otherwise")
    func kiosk() async throws {
        let app = try await LiveApp()
        defer { Task { await app.stop() } }
        let all = try await app.get("/api/kiosk")
        #expect(captures(#""uri":"([^"]+)""#, in: all.body).count == 9)
        let some = try await app.get("/api/kiosk?authors=ines.home.test,jonas.home.test")
        #expect(captures(#""uri":"([^"]+)""#, in: some.body).count == 5)
        let none = try await app.get("/kiosk?authors=nobody.example")
        #expect(none.status == 200)
        #expect(none.body.contains("No stories right now"))
        #expect(none.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        app.clock.advance(hours: 1.6)
        let later = try await app.get("/api/kiosk")
        #expect(captures(#""uri":"([^"]+)""#, in: later.body).count == 8, "the 22.5-hour story has expired")
    }

    @Test("the Your story tile offers a menu to add or view while one has stories, and is a plain + link after they expire")
    func yourStoryTile() async throws {
        let app = try await LiveApp()
        defer { Task { await app.stop() } }
        let browser = Browser(base: app.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories", next: "/")
        let home = try await browser.get("/").body
        let own = try #require(captures(#"data-view-your-story="([^"]+)""#, in: home).first)
        #expect(home.contains("Add to your story") && home.contains("View your story"))
        #expect(!captures(#"data-story-author="([^"]+)""#, in: home).contains(own), "one's own tile is not among the others")
        app.clock.advance(hours: 25)
        let later = try await browser.get("/").body
        #expect(later.contains(#"<a class="tile tile--you" href="/create" data-your-story"#))
        #expect(!later.contains("View your story"))
    }

    @Test("with --kiosk-frame-ancestors the kiosk, and only the kiosk, may be framed by those origins")
    func kioskFraming() async throws {
        let app = try await LiveApp(configure: { $0.kioskFrameAncestors = ["https://wall.home.example"] })
        defer { Task { await app.stop() } }
        let kiosk = try #require(try await app.get("/kiosk").headers["Content-Security-Policy"])
        #expect(kiosk.contains("frame-ancestors https://wall.home.example"))
        let home = try #require(try await app.get("/").headers["Content-Security-Policy"])
        #expect(home.contains("frame-ancestors 'none'"))
    }

    @Test("only the configured origins may frame the kiosk; other pages refuse framing")
    func framing() {
        let policy = ContentPolicy(ContentPolicy.Sources())
        #expect(policy.header().contains("frame-ancestors 'none'"))
        let framed = policy.header(frameAncestors: ["https://wall.home.example"])
        #expect(framed.contains("frame-ancestors https://wall.home.example") && !framed.contains("frame-ancestors 'none'"))
        #expect(ServeConfiguration.isFrameAncestor("https://wall.home.example"))
        #expect(!ServeConfiguration.isFrameAncestor("https://x.example'; script-src *"))
        #expect(!ServeConfiguration.isFrameAncestor("javascript:alert(1)"))
    }
}
