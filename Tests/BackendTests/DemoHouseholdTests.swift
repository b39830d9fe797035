import ATProto
import Foundation
import Imaging
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
        #expect(try f.backend.store.members.all().filter(\.isOwner).map(\.handle) == [handles[0]])
        #expect(try f.backend.store.accounts.isOwner(try #require(try f.backend.store.accounts.account(handles[0])).did.rawValue))
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
        // Photos at a phone's size, both ways round, fitted to the 2000 px the upload pipeline makes too.
        let sizes = ratios.map { $0.split(separator: "x").compactMap { Int($0) } }
        #expect(sizes.contains { $0[0] == 2000 && $0[1] < 2000 }, "a landscape photo at a phone's size: \(ratios)")
        #expect(sizes.contains { $0[1] == 2000 && $0[0] < 2000 }, "a portrait photo at a phone's size: \(ratios)")
    }

    @Test("the demo includes a story older than 24 hours that the strip does not show")
    func oldStoryHidden() async throws {
        let f = try BackendFixture()
        try DemoHousehold.seed(into: f.backend, photos: demoPhotos, handleDomain: "home.test", now: f.clock.now)
        let jonas = try #require(try f.backend.store.accounts.account("jonas.home.test"))
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
        #expect(try f.backend.store.accounts.accountCount() == 3)
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

struct DemoPhotoPreparationTests {
    @Test("a shot is made once and then read back from .prepared, byte for byte, at the size it was made")
    func preparedOnce() throws {
        let photos = FileManager.default.temporaryDirectory.appendingPathComponent("photos-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: photos) }
        try FileManager.default.copyItem(atPath: demoPhotos + "/seeding.jpg", toPath: photos + "/seeding.jpg")
        let shot = DemoHousehold.Shot(file: "seeding.jpg", crop: (0.05, 0.0, 0.32, 1.0), hoursAgo: 1)
        let made = try DemoHousehold.prepared(shot, from: photos, maxEdge: 2000)
        let kept = try FileManager.default.contentsOfDirectory(atPath: photos + "/.prepared")
        #expect(kept.count == 1, "one file per shot, no temporary left: \(kept)")
        let info = try Imaging.readInfo(made)
        #expect(info.height == 2000 && info.width < 2000, "a portrait crop fitted to 2000 px: \(info.width)x\(info.height)")
        // The kept file is what the next seeding publishes: change it and the change comes back.
        var marked = made
        marked.append(0xD9)
        try Data(marked).write(to: URL(fileURLWithPath: photos + "/.prepared/" + kept[0]))
        #expect(try DemoHousehold.prepared(shot, from: photos, maxEdge: 2000) == marked)
        // Another bound is another file.
        _ = try DemoHousehold.prepared(shot, from: photos, maxEdge: 512)
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos + "/.prepared").count == 2)
    }
}
