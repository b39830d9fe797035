import ATProto
import Backend
import Foundation
import Lexicon
import TestSupport
import Testing

/// The store's side of "On this day": stories of every account on given calendar days of earlier years.
struct MemoryQueryTests {
    @Test("stories on the given dates before the cutoff, oldest first, without blocked authors or today's stories")
    func onMonthDays() async throws {
        let f = try BackendFixture()  // the clock reads 2026-08-19T12:00Z
        let maya = try f.account("maya", displayName: "Maya")
        let jonas = try f.account("jonas")
        let kim = try f.account("kim")
        let day = 24.0
        let yearAgo = try f.story(by: maya, hoursAgo: 365 * day)  // 2025-08-19
        let twoYearsAgo = try f.story(by: kim, hoursAgo: 730 * day)  // 2024-08-19
        let yearAndDays = try f.story(by: maya, hoursAgo: 368 * day)  // 2025-08-16
        _ = try f.story(by: maya, hoursAgo: 374 * day)  // 2025-08-10: outside the week
        _ = try f.story(by: maya, hoursAgo: 1)  // today's: not a memory
        _ = try f.story(by: jonas, hoursAgo: 365 * day)  // blocked below
        _ = try await f.block(jonas, by: kim)
        let week = (0...7).map { String(f.clock.now.adding(seconds: -Double($0) * 86_400).iso8601.dropFirst(5).prefix(5)) }
        #expect(week.first == "08-19" && week.last == "08-12")
        let cutoff = f.clock.now.adding(seconds: -8 * 86_400)
        let found = try f.backend.queries.stories(onMonthDays: week, before: cutoff, viewer: kim, imageBase: "")
        #expect(found.stories.map(\.uri) == [twoYearsAgo, yearAndDays, yearAgo].map(\.description))
        #expect(found.stories.first?.creator.handle == "kim.home.test" && found.stories.last?.creator.displayName == "Maya")
        #expect(found.stories.first?.fullsize.hasPrefix("/img/feed_fullsize/") == true)
        // Anonymous: jonas's story too; a bad day string matches nothing rather than failing.
        let anonymous = try f.backend.queries.stories(onMonthDays: ["08-19"], before: cutoff, viewer: nil, imageBase: "")
        #expect(anonymous.stories.count == 3)
        #expect(try f.backend.queries.stories(onMonthDays: ["'; --"], before: cutoff, viewer: nil, imageBase: "").stories.isEmpty)
    }
}
