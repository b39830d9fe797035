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

/// "On this day" against an upstream without a memories method (the remote path): built from the archives of the
/// strip's authors, on the harness's fixed clock (2026-12-01T12:00Z).
@Suite struct MemoriesTests {
    static func uris(_ html: String, _ attribute: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: attribute + #"="([^"]+)""#)
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
            Range($0.range(at: 1), in: html).map { String(html[$0]) }
        }
    }

    @Test("a member sees this date's stories of earlier years grouped by year; anonymous visitors never do")
    func groupedByYear() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 1, now: front.clock.now)
        let lastYear = front.stories.addArchived(maya, createdAt: "2025-12-01T09:00:00.000Z")
        let lastYearLater = front.stories.addArchived(jonas, createdAt: "2025-12-01T18:30:00.000Z")
        let twoYears = front.stories.addArchived(maya, createdAt: "2024-12-01T08:00:00.000Z")
        let nearby = front.stories.addArchived(jonas, createdAt: "2025-11-29T10:00:00.000Z")
        front.stories.addArchived(maya, createdAt: "2026-11-30T10:00:00.000Z")  // yesterday: expired, but no memory
        let kim = try front.visitor("kim.home.test")
        let home = await kim.get(SiteURL.home.path)
        #expect(home.text.contains(#"<h2 id="memories-heading">On this day</h2>"#))
        let years = Self.uris(home.text, "data-memory-item")
        #expect(years == [lastYear, lastYearLater, twoYears].map(\.uri), "most recent year first, each oldest first")
        #expect(!home.text.contains(nearby.uri), "a nearby date only when this date has nothing")
        #expect(home.text.contains(#"<h3 class="memories__year" data-memory-year>1 year ago</h3>"#))
        #expect(home.text.contains(#"<h3 class="memories__year" data-memory-year>2 years ago</h3>"#))
        #expect(home.text.contains(#"href="/memories/1?i=1" data-memory-item="\#(lastYearLater.uri)""#))
        // Issue 26: Today comes first; each memory says who and which year under its thumbnail.
        let todayAt = try #require(home.text.range(of: "data-today")?.lowerBound)
        let memoriesAt = try #require(home.text.range(of: "data-memories")?.lowerBound)
        #expect(todayAt < memoriesAt, "Today above On this day")
        #expect(home.text.contains(#"<span class="today__name">Jonas.Home.Test</span><span class="today__meta">2025</span>"#))
        #expect(home.text.contains(#"<span class="today__name">Maya.Home.Test</span><span class="today__meta">2024</span>"#))
        // Anonymous: no section, and the viewer sends them to sign in.
        let anonymous = await front.page(SiteURL.home.path)
        #expect(!anonymous.text.contains("data-memories") && !anonymous.text.contains(lastYear.uri))
        let refused = await front.page(SiteURL.memories(years: 1).path)
        #expect(refused.status == .found && refused.location?.hasPrefix("/login?next=") == true)
    }

    @Test("the memories viewer plays one year only, labelled, each story with its own author, and closes at its end")
    func viewer() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 1, now: front.clock.now)
        front.stories.addArchived(maya, createdAt: "2025-12-01T09:00:00.000Z")
        let second = front.stories.addArchived(jonas, createdAt: "2025-12-01T18:30:00.000Z")
        front.stories.addArchived(maya, createdAt: "2024-12-01T08:00:00.000Z")
        let kim = try front.visitor("kim.home.test")
        let page = await kim.get(SiteURL.memories(years: 1).with([("i", "1")]))
        #expect(page.status == .ok)
        #expect(page.text.contains(#"data-time>1 year ago</time>"#))
        #expect(page.text.contains(#"data-story-item="\#(second.uri)""#))
        #expect(page.text.contains(#"<span class="viewer__name" data-author-name>Jonas.Home.Test</span>"#))
        // The last of the year: Next closes (home), it does not walk on to two years ago or to an author's stories.
        #expect(page.text.contains(#"<a class="zone zone--next" href="/" data-next"#))
        #expect(page.text.contains(#"<a class="zone zone--previous" href="/memories/1?i=0" data-previous"#))
        let data = try #require(page.capture(#"<script type="application/json" id="viewer-data">(.*?)</script>"#))
        #expect(data.contains(#""authors":[]"#) && data.contains(#""memory":"1 year ago""#))
        #expect(data.contains(#""label":"Memory 2 of 2""#) && data.contains(#""href":"/memories/1?i=0""#))
        #expect(await kim.get(SiteURL.memories(years: 3).path).status == .notFound)
    }

    @Test("with nothing on this date, the nearest earlier date within a week; never further; archives read once an hour")
    func nearestDayAndCache() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let near = front.stories.addArchived(maya, createdAt: "2025-11-28T09:00:00.000Z")
        let nearer = front.stories.addArchived(maya, createdAt: "2023-11-29T09:00:00.000Z")
        front.stories.addArchived(maya, createdAt: "2025-11-20T09:00:00.000Z")  // more than a week before
        let kim = try front.visitor("kim.home.test")
        let home = await kim.get(SiteURL.home.path)
        #expect(Self.uris(home.text, "data-memory-item") == [nearer.uri], "11-29 is nearer to 12-01 than 11-28")
        #expect(home.text.contains("Nothing from this date in earlier years"))
        #expect(!home.text.contains(near.uri))
        let reads = front.stories.content.withLock { $0.archiveReads }
        _ = await kim.get(SiteURL.home.path)
        #expect(front.stories.content.withLock { $0.archiveReads } == reads, "the archive answer is reused")
        front.clock.advance(seconds: 3601)
        _ = await kim.get(SiteURL.home.path)
        #expect(front.stories.content.withLock { $0.archiveReads } > reads)
    }

    @Test("muted authors' and hidden stories' memories are left out; warned ones are blurred")
    func filtered() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let ines = front.stories.addAuthor(handle: "ines.home.test", count: 1, now: front.clock.now)
        let muted = front.stories.addArchived(ines, createdAt: "2025-12-01T09:00:00.000Z")
        let warned = front.stories.addArchived(maya, createdAt: "2025-12-01T10:00:00.000Z")
        let hidden = front.stories.addArchived(maya, createdAt: "2025-12-01T11:00:00.000Z")
        front.stories.content.withLock { content in
            content.archived[maya.rawValue]![0].labels = [VisibilityTests.label("nudity", on: warned.uri)]
            content.archived[maya.rawValue]![1].labels = [VisibilityTests.label("spam", on: hidden.uri)]
            content.relationships["did:plc:" + String(repeating: "k", count: 24)] = ViewerRelationships(muted: [ines.rawValue])
            content.stripFiltered = false
        }
        let kim = try front.visitor("kim.home.test")
        let home = await kim.get(SiteURL.home.path)
        #expect(Self.uris(home.text, "data-memory-item") == [warned.uri])
        #expect(!home.text.contains(muted.uri) && !home.text.contains(hidden.uri))
        #expect(home.text.contains(SiteURL.storyBlurred(did: maya.rawValue, rkey: warned.rkey).path))
    }
}
