import ATProto
import Foundation
import TestSupport
import Testing

@testable import App
@testable import Server

/// The home page of the embedded demo household on a fixed clock: "Today" below the strip, and for a signed-in
/// member "On this day" read in process from the store (the demo's archived stories from this date).
@Suite(.serialized)
struct HomeAndMemoriesTests {
    @Test("Today shows the household's nine live stories newest first; the 30-hour-old one and the memories are not in it")
    func today() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let home = try await live.get("/")
        let grid = captures(#"data-today-item="([^"]+)""#, in: home.body)
        #expect(grid.count == 9)
        let times = captures(#"<span class="today__meta">(?:[^<]* · )?<time datetime="([^"]+)""#, in: home.body)
        #expect(times.count == 9 && times == times.sorted(by: >), "newest first")
        #expect(home.body.contains(#"<span class="today__meta">Miradouro de Santa Luzia, "#))
        #expect(!home.body.contains("data-memories"), "no memories for visitors who are not signed in")
    }

    @Test("a signed-in member sees On this day: one year ago and two years ago, each opening the memories viewer")
    func memories() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        try await browser.signInThroughFront(handle: "jonas.home.test", password: "jonas-stories")
        let home = try await browser.get("/")
        #expect(home.body.contains(#"<h2 id="memories-heading">On this day</h2>"#))
        #expect(captures(#"data-memory-year>([^<]+)<"#, in: home.body) == ["1 year ago", "2 years ago"])
        #expect(captures(#"href="(/memories/[^"]+)" data-memory-item"#, in: home.body) == ["/memories/1?i=0", "/memories/1?i=1", "/memories/2?i=0"])
        let viewer = try await browser.get("/memories/1?i=1")
        #expect(viewer.status == 200)
        #expect(viewer.body.contains(#"data-time>1 year ago</time>"#))
        #expect(viewer.body.contains(#"<a class="zone zone--next" href="/" data-next"#), "the end of the year closes")
        #expect(viewer.body.contains("this story has expired"))
        // Moving the clock a day on: no memories on that date, so the nearest earlier date within a week, noted.
        // (A fresh sign-in after each move: the first session's tokens are not meant to outlive a jump of days.)
        live.clock.advance(hours: 24)
        let later = Browser(base: live.base)
        try await later.signInThroughFront(handle: "jonas.home.test", password: "jonas-stories")
        let tomorrow = try await later.get("/")
        #expect(tomorrow.body.contains("Nothing from this date in earlier years"))
        #expect(captures(#"data-memory-year>([^<]+)<"#, in: tomorrow.body) == ["1 year ago", "2 years ago"])
        live.clock.advance(hours: 24 * 8)
        let muchLater = Browser(base: live.base)
        try await muchLater.signInThroughFront(handle: "jonas.home.test", password: "jonas-stories")
        #expect(!(try await muchLater.get("/")).body.contains("data-memories"), "never further back than a week")
    }
}
