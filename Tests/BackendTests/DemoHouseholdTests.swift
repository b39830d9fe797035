import ATProto
import Foundation
import Lexicon
import TestSupport
import Testing

@testable import Backend

/// The demo photos come from `make demo-photos`; `make test` fetches them before running tests.
let demoPhotos: String = {
    if let path = ProcessInfo.processInfo.environment["GRAIN_DEMO_PHOTOS"] { return path }
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return repo.appendingPathComponent(".build/demo-photos").path
}()

struct DemoHouseholdTests {
    @Test("the demo seeds three members with avatars and 2–5 active stories each from real photographs")
    func seedsHousehold() async throws {
        let f = try BackendFixture()
        let handles = try DemoHousehold.seed(into: f.backend, photos: demoPhotos, handleDomain: "home.test", now: f.clock.now)
        #expect(handles.count == 3)
        // The first member owns the household, so the owner's pages can be tried on first run.
        #expect(try f.backend.store.members().filter(\.isOwner).map(\.handle) == [handles[0]])
        #expect(try f.backend.store.isOwner(try #require(try f.backend.store.account(handles[0])).did.rawValue))
        let authors = try #require(try await f.xrpc("social.grain.unspecced.getStoryAuthors").json?.decode(as: StoryAuthorsOutput.self)).authors
        #expect(authors.count == 3)
        var ratios = Set<String>()
        var located = 0
        for author in authors {
            #expect((2...5).contains(author.storyCount))
            #expect(author.profile.avatar != nil)
            #expect(author.profile.displayName != nil)
            let stories = try #require(
                try await f.xrpc("social.grain.unspecced.getStories", "actor=\(encode(author.profile.did))").json?.decode(as: StoriesOutput.self)
            ).stories
            #expect(stories.count == author.storyCount)
            for story in stories {
                ratios.insert("\(story.aspectRatio.width)x\(story.aspectRatio.height)")
                if story.location != nil { located += 1 }
                #expect(story.expired == false)
            }
        }
        #expect(ratios.count >= 5, "aspect ratios vary: \(ratios)")
        #expect(located >= 2)
    }

    @Test("the demo includes a story older than 24 hours that the strip does not show")
    func oldStoryHidden() async throws {
        let f = try BackendFixture()
        try DemoHousehold.seed(into: f.backend, photos: demoPhotos, handleDomain: "home.test", now: f.clock.now)
        let jonas = try #require(try f.backend.store.account("jonas.home.test"))
        let archive = try #require(
            try await f.xrpc("social.grain.unspecced.getStoryArchive", "actor=\(encode(jonas.did.rawValue))").json?.decode(as: StoriesOutput.self)
        ).stories
        let active = try #require(
            try await f.xrpc("social.grain.unspecced.getStories", "actor=\(encode(jonas.did.rawValue))").json?.decode(as: StoriesOutput.self)
        ).stories
        #expect(archive.count == active.count + 1)
        #expect(archive.filter { $0.expired == true }.count == 1)
    }

    @Test("seeding twice does nothing the second time")
    func seedingIsIdempotent() throws {
        let f = try BackendFixture()
        try DemoHousehold.seed(into: f.backend, photos: demoPhotos, handleDomain: "home.test", now: f.clock.now)
        let again = try DemoHousehold.seed(into: f.backend, photos: demoPhotos, handleDomain: "home.test", now: f.clock.now)
        #expect(again.isEmpty)
        #expect(try f.backend.store.accountCount() == 3)
    }
}

struct DemoMemoriesTests {
    @Test("the demo has archived stories from this date one and two years back, so On this day shows on first run")
    func memoriesOnFirstRun() throws {
        let f = try BackendFixture()
        try DemoHousehold.seed(into: f.backend, photos: demoPhotos, handleDomain: "home.test", now: f.clock.now)
        let today = String(f.clock.now.iso8601.dropFirst(5).prefix(5))
        let found = try f.backend.queries.stories(
            onMonthDays: [today], before: f.clock.now.adding(seconds: -8 * 86_400), viewer: nil, imageBase: "")
        let year = Int(f.clock.now.iso8601.prefix(4))!
        #expect(found.stories.map { year - Int($0.createdAt.prefix(4))! } == [2, 1, 1])
        #expect(found.stories.allSatisfy { $0.expired == true && $0.createdAt.dropFirst(5).hasPrefix(today) })
        #expect(Set(found.stories.map(\.creator.handle)) == ["maya.home.test", "ines.home.test"])
    }

    @Test("a memory's date stays on this date in leap years and just after midnight")
    func memoryDates() {
        let leap = UTCTime(iso8601: "2028-02-29T10:00:00.000Z")!
        #expect(DemoHousehold.yearsBefore(leap, 1).iso8601 == "2027-02-28T10:00:00.000Z")
        let afterMidnight = UTCTime(iso8601: "2026-12-01T00:30:00.000Z")!
        let shot = DemoHousehold.Shot(file: "x", hoursAgo: 2, yearsAgo: 2)
        #expect(DemoHousehold.createdAt(shot, now: afterMidnight).iso8601 == "2024-12-01T00:00:00.000Z")
    }
}
