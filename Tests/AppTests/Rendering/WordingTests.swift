import ATProto
import Testing

@testable import App

/// Issue 26's small things in words: counts take the right noun, and a date from another year says its year.
struct WordingTests {
    @Test("one comment, not one comments; zero and many take the plural")
    func plurals() {
        #expect(Plural.count(1, "comment") == "1 comment")
        #expect(Plural.count(0, "comment") == "0 comments")
        #expect(Plural.count(25, "comment") == "25 comments")
        #expect(Plural.count(2, "person", "people") == "2 people")
    }

    @Test("times: minutes and hours spelled out with the right noun, this year's dates without a year, older ones with it")
    func dates() throws {
        let now = try #require(UTCTime(iso8601: "2026-12-06T12:00:00.000Z"))
        #expect(RelativeTime.long(now.adding(seconds: -60), now: now) == "1 minute ago")
        #expect(RelativeTime.long(now.adding(seconds: -7_200), now: now) == "2 hours ago")
        let march = try #require(UTCTime(iso8601: "2026-03-15T09:00:00.000Z"))
        #expect(RelativeTime.short(march, now: now) == "Mar 15")
        let lastYear = try #require(UTCTime(iso8601: "2025-12-05T09:00:00.000Z"))
        #expect(RelativeTime.short(lastYear, now: now) == "Dec 5, 2025")
        #expect(RelativeTime.long(lastYear, now: now) == "on Dec 5, 2025")
    }
}
