import ATProto
import Foundation
import HTTPServer
import Imaging
import Synchronization
import TestSupport
import Testing

@testable import App
@testable import Server

@Suite(.serialized)
struct PagesTests {
    @Test("home lists a Your story tile, then each author with a ringed avatar, newest first")
    func homeStrip() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let (status, html, headers) = try await live.get("/")
        #expect(status == 200)
        #expect(headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(html.contains("data-your-story"))
        let dids = captures(#"data-story-author="([^"]+)""#, in: html)
        #expect(dids.count == 3)
        let yourStory = try #require(html.range(of: "data-your-story"))
        let firstAuthor = try #require(html.range(of: "data-story-author"))
        #expect(yourStory.lowerBound < firstAuthor.lowerBound)
        #expect(html.contains("Maya Costa") && html.contains("Jonas Weber") && html.contains("Inês"))
        // Newest first: Maya posted 0.6 h ago, Jonas 1.5 h, Inês 2.1 h.
        let names = captures(#"class="tile__name">([^<]+)<"#, in: html)
        #expect(names == ["Your story", "Maya Costa", "Jonas Weber", "Inês"])
        #expect(captures(#"data-story-author="[^"]+"[^>]*href|href="(/stories/[^"]+)""#, in: html).filter { !$0.isEmpty }.count == 3)
    }

    @Test(
        "every HTML page carries a CSP of our own scripts and styles only (no nonce, no inline), nosniff, a referrer policy and frame-ancestors 'none'"
    )
    func securityHeaders() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let story = try #require(try await live.get("/stories/maya.home.test").headers["Location"])
        for path in ["/", "/profile/maya.home.test", story, "/kiosk", "/login", "/nope"] {
            let (_, _, headers) = try await live.get(path)
            let csp = try #require(headers["Content-Security-Policy"], "\(path)")
            #expect(csp.contains("script-src 'self'; style-src 'self';"), "\(path)")
            #expect(!csp.contains("nonce") && !csp.contains("unsafe-inline"), "\(path)")
            #expect(csp.contains("frame-ancestors 'none'"), "\(path)")
            #expect(headers["X-Content-Type-Options"] == "nosniff")
            #expect(headers["Referrer-Policy"] == "strict-origin-when-cross-origin")
        }
    }

    @Test("the viewer starts at an author's first story and walks the strip's order to the end")
    func viewerWalk() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let home = try await live.get("/")
        let authors = captures(#"data-story-author="([^"]+)""#, in: home.body)
        let start = try await live.get("/stories/\(authors[0])")
        #expect(start.status == 302)
        var location = try #require(start.headers["Location"])
        #expect(location.hasPrefix("/profile/\(authors[0])/story/"))

        var visited: [(author: String, position: String)] = []
        while location.hasPrefix("/profile/") || location.hasPrefix("/stories/") {
            let page = try await live.get(location)
            if page.status == 302 {
                location = try #require(page.headers["Location"])
                continue
            }
            #expect(page.status == 200, "\(location)")
            let author = try #require(captures(#"role="dialog"[^>]*data-story-author="([^"]+)""#, in: page.body).first)
            let position = try #require(captures(#"(Story \d+ of \d+)"#, in: page.body).first)
            let segments = captures(#"(data-segment)[ >]"#, in: page.body).count
            #expect(position.hasSuffix("of \(segments)"))
            #expect(captures(#"(data-progress=)"#, in: page.body).count == 1, "only the active segment has data-progress")
            #expect(page.body.contains(#"<img class="viewer__photo""#) && page.body.contains(#"alt="Photo by"#))
            visited.append((author, position))
            location = unescape(try #require(captures(#"href="([^"]+)" rel="next""#, in: page.body).first))
            #expect(visited.count < 20)
        }
        #expect(location == "/", "after the last story of the last author the viewer closes")
        #expect(visited.map(\.author).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } } == authors)
        #expect(visited.count == 4 + 3 + 2)
    }

    @Test("Previous from an author's first story goes to the previous author's last story")
    func previousAcrossAuthors() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let authors = captures(#"data-story-author="([^"]+)""#, in: try await live.get("/").body)
        let first = try #require(try await live.get("/stories/\(authors[1])").headers["Location"])
        let page = try await live.get(first)
        let previous = unescape(try #require(captures(#"href="([^"]+)" rel="prev""#, in: page.body).first))
        #expect(previous.hasPrefix("/stories/\(authors[0])?at=last"))
        let landing = try await live.get(previous)
        let last = try #require(landing.headers["Location"])
        let lastPage = try await live.get(last)
        #expect(lastPage.body.contains("Story 4 of 4"))
        let close = captures(#"href="([^"]+)" data-close"#, in: page.body)
        #expect(close == ["/"])
    }

    @Test("the viewer accepts a handle and the close link returns to the page it was opened from")
    func viewerFromProfile() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let profile = try await live.get("/profile/ines.home.test")
        #expect(profile.status == 200)
        let ring = unescape(try #require(captures(#"class="ring ring--large" href="([^"]+)""#, in: profile.body).first))
        let redirect = try await live.get(ring)
        let story = try await live.get(try #require(redirect.headers["Location"]))
        #expect(captures(#"href="([^"]+)" data-close"#, in: story.body).map(unescape) == ["/profile/ines.home.test"])
        let byHandle = try await live.get("/stories/ines.home.test")
        #expect(byHandle.status == 302)
    }

    @Test("a profile without active stories has no ring link; unknown people get a 404 page")
    func profileRing() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        live.clock.advance(hours: 24)
        let quiet = try await live.get("/profile/maya.home.test")
        #expect(quiet.status == 200)
        #expect(quiet.body.contains("data-no-stories"))
        #expect(!quiet.body.contains("ring ring--large\" href"))
        #expect(quiet.body.contains("Expired"), "the archive still shows her stories")
        let missing = try await live.get("/profile/nobody.home.test")
        #expect(missing.status == 404)
        #expect(missing.body.contains("No one called nobody.home.test"))
        let empty = try await live.get("/stories/maya.home.test")
        #expect(empty.status == 404)
    }

    @Test("an expired story stays reachable by its permalink")
    func expiredPermalink() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let profile = try await live.get("/profile/jonas.home.test")
        let expired = try #require(captures(#"href="([^"]+)"><img[^>]*><span class="archive__badge">Expired"#, in: profile.body).first)
        let page = try await live.get(unescape(expired))
        #expect(page.status == 200)
        #expect(page.body.contains("this story has expired"))
    }

    @Test("pages work without JavaScript: every control is a plain link")
    func noJavaScriptLinks() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let home = try await live.get("/")
        let author = try #require(captures(#"data-story-author="([^"]+)""#, in: home.body).first)
        let page = try await live.get(try #require(try await live.get("/stories/\(author)").headers["Location"]))
        for rel in ["prev", "next"] { #expect(!captures(#"href="([^"]+)" rel="\#(rel)""#, in: page.body).isEmpty) }
        #expect(page.body.contains(">Close</a>"))
        #expect(page.body.contains("data-pause") && page.body.contains("hidden"), "the pause button only appears with JavaScript")
    }

    @Test("user-supplied text is escaped in pages")
    func escaping() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let page = try await live.get("/profile/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
        #expect(page.status == 404)
        #expect(!page.body.contains("<img src=x"))
        #expect(page.body.contains("No one called &lt;img src=x onerror=alert(1)&gt; is here."))
    }
}

@Suite(.serialized)
struct CachingTests {
    @Test("pages are reused briefly as the same bytes and headers, and a post shows at once")
    func pageCache() async throws {
        let live = try await LiveApp(caches: true)
        defer { Task { await live.stop() } }
        let first = try await live.get("/")
        let second = try await live.get("/")
        #expect(first.body == second.body)
        for name in ["Content-Security-Policy", "Content-Type", "Cache-Control", "X-Content-Type-Options", "Referrer-Policy"] {
            #expect(second.headers[name] != nil && second.headers[name] == first.headers[name], "\(name)")
        }
        let story = try #require(try await live.get("/stories/ines.home.test").headers["Location"])
        let v1 = try await live.get(story)
        let v2 = try await live.get(story)
        #expect(v1.headers["Content-Security-Policy"] == v2.headers["Content-Security-Policy"])
        #expect(v1.body == v2.body)

        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "ines.home.test", password: "ines-stories")
        let form = try await browser.get("/create")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first)
        let jpeg = try Imaging.encodeJPEG(RGBImage(width: 30, height: 40, red: 10, green: 200, blue: 90), quality: 80)
        #expect(try await browser.postMultipart("/create", fields: [("csrf", csrf)], file: ("photo", "p.jpg", "image/jpeg", jpeg)).status == 303)
        let after = try await live.get("/")
        #expect(
            captures(#"data-story-author="([^"]+)""#, in: after.body).first == captures(#"data-story-author="([^"]+)""#, in: first.body).last,
            "Inês, who just posted, leads the strip immediately")
    }
}

struct PageCacheCoalescingTests {
    @Test("concurrent misses for one page share a single render, and every caller gets its page")
    func coalesces() async throws {
        let cache = PageCache(ttl: .seconds(60))
        final class Counter: Sendable { let value = Atomic<Int>(0) }
        let renders = Counter()
        let responses = try await withThrowingTaskGroup(of: Response.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await cache.page(PageCache.Key(path: "/x")) {
                        renders.value.add(1, ordering: .relaxed)
                        try await Task.sleep(for: .milliseconds(50))
                        return Response.html("<p>the page</p>")
                    }
                }
            }
            return try await group.reduce(into: [Response]()) { $0.append($1) }
        }
        #expect(renders.value.load(ordering: .relaxed) == 1)
        #expect(responses.count == 20)
        #expect(responses.allSatisfy { if case .bytes(let body) = $0.body { body == Array("<p>the page</p>".utf8) } else { false } })
        let cached = try #require(cache.peek(PageCache.Key(path: "/x")), "the shared render is kept for the fast path")
        #expect(cached.response.status == .ok)
    }
}
