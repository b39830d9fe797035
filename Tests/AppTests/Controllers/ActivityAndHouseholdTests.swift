import ATProto
import Foundation
import HTTPServer
import HatkClient
import Lexicon
import Synchronization
import TestSupport
import Testing

@testable import App

/// The activity page and its header count, the owner's review of reports, and the create form's truth about Bluesky.
@Suite struct ActivityAndHouseholdTests {
    static let jonasDID = "did:plc:" + String(repeating: "j", count: 24)

    static func notification(_ reason: String, by author: ProfileView, story: String, text: String? = nil) -> NotificationItem {
        var item = NotificationItem(uri: "at://\(author.did)/x/3k", reason: reason, createdAt: "2026-12-01T11:50:00.000Z", author: author)
        item.storyUri = story
        item.commentText = text
        return item
    }

    @Test("the header counts unseen activity; the page lists favourites and comments; its form marks them seen as of the page, never the GET")
    func activity() async throws {
        let stub = try StubHatk()
        let front = try FrontHarness(writer: stub.url)
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 1, now: front.clock.now)
        let story = front.stories.story(jonas, 0)
        let maya = ProfileView(cid: "", did: "did:plc:" + String(repeating: "m", count: 24), handle: "maya.home.test", displayName: "Maya")
        front.stories.content.withLock {
            $0.notifications[Self.jonasDID] = [
                Self.notification(NotificationReason.storyComment, by: maya, story: story.uri, text: "<b>nice</b>"),
                Self.notification(NotificationReason.storyFavorite, by: maya, story: story.uri),
                Self.notification("gallery-favorite", by: maya, story: story.uri),
            ]
        }
        let visitor = try front.visitor("jonas.home.test")
        let home = await visitor.get(SiteURL.home.path)
        #expect(home.text.contains("data-activity-count>2<"), "the gallery favourite is not counted: the page does not list it")
        let page = await visitor.get(SiteURL.activity.path)
        #expect(page.status == .ok)
        #expect(page.text.contains("Maya</a> <a href=\"\(SiteURL.story(did: jonas.rawValue, rkey: story.rkey).path)\">commented on your story</a>"))
        #expect(page.text.contains("&lt;b&gt;nice&lt;/b&gt;") && page.text.contains("favourited your story"))
        #expect(!page.text.contains("gallery"), "only the story reasons")
        #expect(stub.calls("dev.hatk.putPreference").isEmpty, "looking at the page changes nothing")
        #expect((await visitor.get(SiteURL.home.path)).text.contains("data-activity-count>2<"))
        // The page's form (its script sends it as the page opens) marks seen what the page showed, as of the page.
        let shownAt = front.clock.now.iso8601
        #expect(page.text.contains(#"<input type="hidden" name="at" value="\#(shownAt)">"#))
        #expect(page.text.contains("js/activity"))
        front.clock.advance(seconds: 30)
        let marked = await visitor.post(SiteURL.activitySeen.path, [("at", shownAt)], json: true)
        #expect(marked.status == .ok)
        let seen = try #require(stub.calls("dev.hatk.putPreference").first?.body)
        #expect(seen["key"]?.stringValue == "lastSeenNotifications" && seen["value"]?.stringValue == shownAt)
        // A time ahead of the server's is taken as now.
        _ = await visitor.post(SiteURL.activitySeen.path, [("at", "2099-01-01T00:00:00.000Z")])
        #expect(stub.calls("dev.hatk.putPreference").last?.body["value"]?.stringValue == front.clock.now.iso8601)
    }

    /// `count` notifications for jonas, newest first, one second apart, with the reason `reason(i)` for the i-th.
    static func notifications(_ count: Int, story: String, reason: (Int) -> String) -> [NotificationItem] {
        let maya = ProfileView(cid: "", did: "did:plc:" + String(repeating: "m", count: 24), handle: "maya.home.test", displayName: "Maya")
        let newest = UTCTime(iso8601: "2026-12-01T11:50:00.000Z")!
        return (0..<count).map { i in
            var item = NotificationItem(
                uri: "at://\(maya.did)/x/3k\(i)", reason: reason(i), createdAt: newest.adding(seconds: -Double(i)).iso8601, author: maya)
            item.storyUri = story
            return item
        }
    }

    @Test("on Grain's hatk, whose unseenCount counts every reason, the header counts only unseen story favourites and comments")
    func countOnlyWhatThePageLists() async throws {
        let front = try FrontHarness()
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 1, now: front.clock.now)
        let story = front.stories.story(jonas, 0).uri
        // 120 gallery favourites, then 3 story favourites, then follows; 125 unseen.
        let items = Self.notifications(200, story: story) { i in
            i < 120 ? "gallery-favorite" : i < 123 ? NotificationReason.storyFavorite : i < 130 ? "follow" : NotificationReason.storyComment
        }
        front.stories.content.withLock {
            $0.notifications[Self.jonasDID] = items
            $0.unseenNotifications[Self.jonasDID] = 125
        }
        let visitor = try front.visitor("jonas.home.test")
        #expect((await visitor.get(SiteURL.home.path)).text.contains("data-activity-count>3<"), "the story comments past the unseen are seen")
        #expect(front.stories.content.withLock { $0.notificationReads } == 3, "the count, then 100 and 25 of the unseen")

        // Only other reasons unseen: no count at all.
        let other = try FrontHarness()
        other.stories.content.withLock {
            $0.notifications[Self.jonasDID] = Self.notifications(40, story: story) { _ in "follow" }
            $0.unseenNotifications[Self.jonasDID] = 40
        }
        let otherHome = try await other.visitor("jonas.home.test").get(SiteURL.home.path)
        #expect(!otherHome.text.contains("data-activity-count"))
    }

    @Test("however many other notifications are unseen, the count reads a bounded number of pages")
    func countIsBounded() async throws {
        let front = try FrontHarness()
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 1, now: front.clock.now)
        let items = Self.notifications(2000, story: front.stories.story(jonas, 0).uri) { i in
            i % 100 == 99 ? NotificationReason.storyComment : "gallery-favorite"
        }
        front.stories.content.withLock {
            $0.notifications[Self.jonasDID] = items
            $0.unseenNotifications[Self.jonasDID] = 2000
        }
        let home = try await front.visitor("jonas.home.test").get(SiteURL.home.path)
        #expect(home.text.contains("data-activity-count>\(StoryNotifications.maxPages)<"), "one comment in each page read")
        #expect(front.stories.content.withLock { $0.notificationReads } == 1 + StoryNotifications.maxPages)
    }

    @Test("an activity page whose newest notifications are all of other reasons still lists the older story ones, and pages on from them")
    func activityPagesPastOtherReasons() async throws {
        let stub = try StubHatk()
        let front = try FrontHarness(writer: stub.url)
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 1, now: front.clock.now)
        let items = Self.notifications(200, story: front.stories.story(jonas, 0).uri) { i in
            i < 45 ? "gallery-favorite" : i < 47 ? NotificationReason.storyComment : i < 150 ? "follow" : NotificationReason.storyFavorite
        }
        front.stories.content.withLock {
            $0.notifications[Self.jonasDID] = items
            $0.unseenNotifications[Self.jonasDID] = 46
        }
        let visitor = try front.visitor("jonas.home.test")
        let page = await visitor.get(SiteURL.activity.path)
        #expect(page.text.components(separatedBy: "commented on your story").count - 1 == 2, "the two story comments behind 45 gallery favourites")
        #expect(page.text.components(separatedBy: "activity__item--new").count - 1 == 1, "the first comment is unseen, the second not")
        let more = try #require(captures(#"href="(/activity\?cursor=[^"]+)""#, in: page.text).first)
        let next = await visitor.get(more.replacingOccurrences(of: "&amp;", with: "&"))
        #expect(next.text.contains("favourited your story"), "the next page reads on past the follows")
    }

    @Test("an upstream without notifications shows no count and says so on the page")
    func noNotifications() async throws {
        let front = try FrontHarness()
        front.stories.content.withLock { $0.unsupported = ["getNotifications"] }
        let visitor = try front.visitor("jonas.home.test")
        #expect(!(await visitor.get(SiteURL.home.path)).text.contains("data-activity-count"))
        #expect((await visitor.get(SiteURL.activity.path)).text.contains("does not share activity"))
    }

    @Test("Post to Bluesky is offered, and its outcome told, only where a post can reach Bluesky")
    func crossPost() async throws {
        var settings = FrontSettings()
        settings.canCrossPost = false
        let household = try FrontHarness(settings: settings)
        let maya = household.stories.addAuthor(handle: "maya.home.test", count: 1, now: household.clock.now)
        let member = try household.visitor("maya.home.test")
        let form = await member.get(SiteURL.create.path)
        #expect(!form.text.contains(#"name="crossPost""#) && form.text.contains("Gore hides it from everyone on Grain"))
        let told = await member.get(SiteURL.story(did: maya.rawValue, rkey: household.stories.story(maya, 0).rkey).with([("posted", "bluesky")]))
        #expect(!told.text.contains("Bluesky"))
        let remote = try FrontHarness()
        let own = remote.stories.addAuthor(handle: "maya.home.test", count: 1, now: remote.clock.now)
        let person = try remote.visitor("maya.home.test")
        #expect((await person.get(SiteURL.create.path)).text.contains(#"name="crossPost""#))
        let page = await person.get(SiteURL.story(did: own.rawValue, rkey: remote.stories.story(own, 0).rkey).with([("posted", "bluesky")]))
        #expect(page.text.contains("Posted to your story and to Bluesky."))
    }

    final class FakeModeration: Moderation, Sendable {
        let owner: String
        let state = Mutex<(reports: [ReportEntry], hidden: [String], dismissed: [Int])>(([], [], []))
        init(owner: String) { self.owner = owner }
        func check(_ who: String) throws { guard who == owner else { throw HouseholdError.notOwner } }
        func openReports(by owner: String) throws -> [ReportEntry] {
            try check(owner)
            return state.withLock { $0.reports }
        }
        func hide(_ uri: ATURI, by owner: String, now: UTCTime) throws {
            try check(owner)
            state.withLock { $0.hidden.append(uri.description) }
        }
        func dismiss(report id: Int, by owner: String, now: UTCTime) throws {
            try check(owner)
            state.withLock { $0.dismissed.append(id) }
        }
    }

    @Test("only the owner reviews reports; hiding goes through the household's moderation, with the form's CSRF token")
    func adminReports() async throws {
        let moderation = FakeModeration(owner: "did:plc:" + String(repeating: "o", count: 24))
        let front = try FrontHarness(moderation: moderation)
        let ines = front.stories.addAuthor(handle: "ines.home.test", count: 1, now: front.clock.now)
        let story = front.stories.story(ines, 0)
        moderation.state.withLock {
            $0.reports = [
                ReportEntry(
                    id: 7, subject: story.uri, subjectDID: ines.rawValue, label: "spam", reason: "<script>x</script>",
                    reportedBy: Self.jonasDID, createdAt: front.clock.now.iso8601)
            ]
        }
        #expect((await front.page(SiteURL.adminReports.path)).location?.hasPrefix("/login") == true)
        let member = try front.visitor("jonas.home.test")
        #expect((await member.get(SiteURL.adminReports.path)).status == .forbidden)
        let owner = try front.visitor("owner.home.test")
        let page = await owner.get(SiteURL.adminReports.path)
        #expect(page.status == .ok && page.text.contains("&lt;script&gt;x&lt;/script&gt;") && page.text.contains("@ines.home.test"))
        #expect((await member.post(SiteURL.adminReports.path, [("id", "7"), ("action", "hide")])).status == .forbidden)
        let hidden = await owner.post(SiteURL.adminReports.path, [("id", "7"), ("action", "hide")])
        #expect(hidden.location == SiteURL.adminReports.with([("done", "hidden")]))
        #expect(moderation.state.withLock { $0.hidden } == [story.uri])
        _ = await owner.post(SiteURL.adminReports.path, [("id", "7"), ("action", "dismiss")])
        #expect(moderation.state.withLock { $0.dismissed } == [7])
    }

    @Test("against a remote hatk there is no review page: its operators moderate there")
    func noReviewPageRemotely() async throws {
        let front = try FrontHarness()
        let visitor = try front.visitor("jonas.home.test")
        #expect((await visitor.get(SiteURL.adminReports.path)).status == .notFound)
    }
}
