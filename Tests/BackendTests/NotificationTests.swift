import ATProto
import Backend
import Foundation
import HTTPServer
import Lexicon
import TestSupport
import Testing

struct NotificationTests {
    @Test("favourites and comments others make on my stories are my notifications, newest first, with story and thumbnail")
    func notifications() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas", displayName: "Jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        let fav = try await f.favorite(story, by: jonas)
        f.clock.advance(hours: 0.1)
        let comment = try await f.comment("lovely", on: story, by: jonas)
        _ = try await f.comment("reply", on: story, by: jonas, replyTo: comment)
        _ = try await f.favorite(story, by: maya)
        _ = try await f.comment("my own", on: story, by: maya)
        let elsewhere = try f.story(by: jonas, hoursAgo: 1)
        _ = try await f.favorite(elsewhere, by: maya)

        let output = try await f.query(NotificationsOutput.self, "social.grain.unspecced.getNotifications", as: maya)
        #expect(output.notifications.map(\.uri) == [comment.description, fav.description], "replies and my own actions are not mine to hear about")
        #expect(output.notifications.map(\.reason) == ["story-comment", "story-favorite"])
        #expect(output.notifications[0].commentText == "lovely")
        #expect(output.notifications[1].commentText == nil)
        #expect(output.notifications.allSatisfy { $0.storyUri == story.description })
        let cid = try #require(try f.backend.store.records.record(story)?.value["media"]?["ref"]?["$link"]?.stringValue)
        #expect(output.notifications[0].storyThumb == "http://stories.test/img/avatar/\(maya.rawValue)/\(cid)")
        #expect(output.notifications[0].author.displayName == "Jonas")
        #expect(output.unseenCount == 2)
        #expect(await f.xrpc("social.grain.unspecced.getNotifications").status == 400, "hatk's InvalidRequestError: Authentication required")
    }

    @Test("unseenCount counts from the lastSeenNotifications preference; countOnly skips the list; pages follow the cursor")
    func seenAndPaging() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        for i in 0..<3 { _ = try await f.comment("c\(i)", on: story, by: jonas, minutesAgo: Double(30 - i)) }
        let seen = f.clock.now.adding(seconds: -29 * 60 + 30).iso8601  // after c0 and c1
        let put = await f.post(
            "dev.hatk.putPreference", as: maya, json: .object(["key": .string("lastSeenNotifications"), "value": .string(seen)]))
        #expect(put == (200, .object(["success": .bool(true)])))
        let count = try await f.query(NotificationsOutput.self, "social.grain.unspecced.getNotifications", "countOnly=true", as: maya)
        #expect(count.notifications.isEmpty)
        #expect(count.unseenCount == 1)
        let page1 = try await f.query(NotificationsOutput.self, "social.grain.unspecced.getNotifications", "limit=2", as: maya)
        #expect(page1.notifications.compactMap(\.commentText) == ["c2", "c1"])
        let page2 = try await f.query(
            NotificationsOutput.self, "social.grain.unspecced.getNotifications", "limit=2&cursor=\(encode(page1.cursor ?? ""))", as: maya)
        #expect(page2.notifications.compactMap(\.commentText) == ["c0"])
        #expect(page2.cursor == nil)
        let preferences = try await f.query(PreferencesOutput.self, "dev.hatk.getPreferences", as: maya)
        #expect(preferences.preferences["lastSeenNotifications"] == .string(seen))
    }

    @Test("nothing is heard from muted or blocked accounts")
    func mutedAndBlocked() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let ines = try f.account("ines")
        let story = try f.story(by: maya, hoursAgo: 1)
        _ = try await f.favorite(story, by: jonas)
        _ = try await f.favorite(story, by: ines)
        _ = await f.post("social.grain.graph.muteActor", as: maya, json: .object(["actor": .string(jonas.rawValue)]))
        _ = try await f.block(maya, by: ines)
        let output = try await f.query(NotificationsOutput.self, "social.grain.unspecced.getNotifications", as: maya)
        #expect(output.notifications.isEmpty)
        #expect(output.unseenCount == 0)
    }

    @Test("putPreference refuses a missing key or value as hatk does, and bounds what an account keeps")
    func preferenceBounds() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        #expect(await f.post("dev.hatk.putPreference", as: nil, json: .object(["key": .string("k"), "value": .integer(1)])).status == 401)
        #expect(
            await f.post("dev.hatk.putPreference", as: maya, json: .object(["value": .integer(1)])) == (
                400, .object(["error": .string("Missing or invalid key")])
            ))
        #expect(
            await f.post("dev.hatk.putPreference", as: maya, json: .object(["key": .string("k")])) == (
                400, .object(["error": .string("Missing value")])
            ))
        let huge = await f.post(
            "dev.hatk.putPreference", as: maya, json: .object(["key": .string("k"), "value": .string(String(repeating: "x", count: 20_000))]))
        #expect(huge.status == 400)
        #expect(await f.xrpc("dev.hatk.getPreferences").status == 401)
    }
}
