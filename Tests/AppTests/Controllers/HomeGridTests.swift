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

/// The home page's "Today" grid: every visible story of the walk, newest first, linking to its permalink.
@Suite struct HomeGridTests {
    /// The grid's story URIs in page order.
    static func gridURIs(_ html: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: #"data-today-item="([^"]+)""#)
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
            Range($0.range(at: 1), in: html).map { String(html[$0]) }
        }
    }

    @Test("Today lists every story newest first; warned ones blurred, hidden and muted ones absent; seen ones marked")
    func grid() async throws {
        let front = try FrontHarness()
        let now = front.clock.now
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 3, now: now, minutesAgo: 5)
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 1, now: now, minutesAgo: 12)
        let ines = front.stories.addAuthor(handle: "ines.home.test", count: 1, now: now, minutesAgo: 1)
        VisibilityTests.labelled(front, maya, index: 0, "nudity")
        VisibilityTests.labelled(front, maya, index: 1, "spam")
        let kimDID = "did:plc:" + String(repeating: "k", count: 24)
        front.stories.content.withLock {
            $0.relationships[kimDID] = ViewerRelationships(muted: [ines.rawValue])
            $0.stripFiltered = false
        }
        let kim = try front.visitor("kim.home.test")
        // maya's stories are 25, 15 and 5 minutes old; jonas's 12.
        let expected = [front.stories.story(maya, 2), front.stories.story(jonas, 0), front.stories.story(maya, 0)]
        let home = await kim.get(SiteURL.home.path)
        #expect(home.status == .ok)
        #expect(Self.gridURIs(home.text) == expected.map(\.uri))
        let warned = front.stories.story(maya, 0)
        let blurred = SiteURL.storyBlurred(did: maya.rawValue, rkey: warned.rkey).path
        #expect(home.text.contains(#"src="\#(blurred)" alt="Hidden photo (Nudity) by Maya.Home.Test"#))
        #expect(home.text.contains(#"class="blurred" data-warned"#) && !home.text.contains(warned.thumb))
        #expect(!home.text.contains(front.stories.story(maya, 1).uri), "hidden")
        #expect(!home.text.contains(front.stories.story(ines, 0).uri), "muted")
        // Each tile is a plain link to the story's permalink: the viewer without scripts.
        let jonasStory = front.stories.story(jonas, 0)
        let permalink = SiteURL.story(did: jonas.rawValue, rkey: jonasStory.rkey).path
        #expect(home.text.contains(#"href="\#(permalink)" data-today-item="\#(jonasStory.uri)" data-seen="false""#))
        // Served means seen: back home, that tile is marked seen and the others stay new.
        #expect(await kim.get(permalink).status == .ok)
        let again = await kim.get(SiteURL.home.path)
        #expect(again.text.contains(#"data-today-item="\#(jonasStory.uri)" data-seen="true""#))
        #expect(again.text.contains(#"data-today-item="\#(expected[0].uri)" data-seen="false""#))
        #expect(again.text.components(separatedBy: #"<span class="today__new">New</span>"#).count - 1 == 2)
    }

    @Test("one's own stories never carry the New badge; others' unseen ones do")
    func ownStoriesAreNeverNew() async throws {
        let front = try FrontHarness()
        _ = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 1, now: front.clock.now)
        let maya = try front.visitor("maya.home.test")
        let home = await maya.get(SiteURL.home.path).text
        #expect(home.components(separatedBy: #"<span class="today__new">New</span>"#).count - 1 == 1, "jonas's only")
        let jonasTile = try #require(home.range(of: #"data-today-item="\#(front.stories.story(jonas, 0).uri)""#))
        #expect(home[jonasTile.upperBound...].prefix(600).contains("today__new"))
    }

    @Test("an anonymous visitor sees the same grid (without seen marks); an empty household shows no grid")
    func anonymous() async throws {
        let front = try FrontHarness()
        #expect(!(await front.page(SiteURL.home.path)).text.contains("data-today"))
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        front.stories.update(maya, story: 1) { $0.locationDisplay = "Lisbon, PT" }
        let home = await front.page(SiteURL.home.path)
        #expect(Self.gridURIs(home.text) == [front.stories.story(maya, 1).uri, front.stories.story(maya, 0).uri])
        #expect(home.text.contains(#"<span class="today__meta">Lisbon, PT · <time datetime=""#))
    }
}
