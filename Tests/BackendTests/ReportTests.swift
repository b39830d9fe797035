import ATProto
import Backend
import Foundation
import Lexicon
import TestSupport
import Testing

struct ReportTests {
    func report(_ f: BackendFixture, _ input: [String: JSONValue], as viewer: DID?) async -> (status: Int, json: JSONValue?) {
        await f.post("dev.hatk.createReport", as: viewer, json: .object(input))
    }

    @Test("createReport stores a report about a story or an account and answers hatk's shape")
    func createReport() async throws {
        let f = try BackendFixture()
        let owner = try f.backend.store.household.createOwner(handle: "owner.home.test", now: f.clock.now).did
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        let cid = try #require(try f.backend.store.records.record(story)).cid
        let subject: JSONValue = .object(["$type": .string("com.atproto.repo.strongRef"), "uri": .string(story.description), "cid": .string(cid)])
        let (status, json) = await report(f, ["subject": subject, "label": .string("nudity"), "reason": .string("not for the kitchen")], as: jonas)
        #expect(status == 200)
        #expect(json?["subject"] == subject)
        #expect(json?["label"] == .string("nudity"))
        #expect(json?["reason"] == .string("not for the kitchen"))
        #expect(json?["reportedBy"] == .string(jonas.rawValue))
        #expect(json?["id"]?.intValue == 1)
        let account = await report(f, ["subject": .object(["did": .string(maya.rawValue)]), "label": .string("spam")], as: jonas)
        #expect(account.status == 200)
        #expect(account.json?["reason"] == nil, "no reason, no field")

        let reports = try f.backend.store.moderation.reports(by: owner)
        #expect(reports.map(\.label) == ["spam", "nudity"])
        #expect(reports[0].subjectURI == "at://\(maya.rawValue)")
        #expect(reports[1].subjectURI == story.description && reports[1].subjectCID == cid && reports[1].subjectDID == maya.rawValue)
        #expect(throws: BackendStore.HouseholdError.notOwner) { _ = try f.backend.store.moderation.reports(by: jonas) }
    }

    @Test("createReport refuses what hatk refuses, with hatk's messages")
    func refusals() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let subject: JSONValue = .object(["did": .string(maya.rawValue)])
        #expect(await report(f, ["subject": subject, "label": .string("spam")], as: nil).status == 401)
        let cases: [([String: JSONValue], String)] = [
            (["label": .string("spam")], "Missing subject"),
            (["subject": subject], "Missing or invalid label"),
            (["subject": subject, "label": .string("ugly")], "Unknown label: ugly"),
            (
                ["subject": subject, "label": .string("spam"), "reason": .string(String(repeating: "x", count: 2001))],
                "Reason must be 2000 characters or less"
            ),
            (["subject": .object(["uri": .string("https://evil.test/x")]), "label": .string("spam")], "Invalid subject URI"),
            (["subject": .object(["cid": .string("bafy")]), "label": .string("spam")], "Subject must have uri or did"),
        ]
        for (input, message) in cases {
            let (status, json) = await report(f, input, as: maya)
            #expect(status == 400, "\(message)")
            #expect(json?["error"] == .string(message))
        }
        let exactly = await report(
            f, ["subject": subject, "label": .string("other"), "reason": .string(String(repeating: "é", count: 2000))], as: maya)
        #expect(exactly.status == 200, "2000 characters is allowed")
    }

    @Test("a story the owner hides is gone from every query and the strip, its image is refused, and unhiding restores it")
    func ownerHidesStory() async throws {
        let f = try BackendFixture()
        let owner = try f.backend.store.household.createOwner(handle: "owner.home.test", now: f.clock.now).did
        let maya = try f.account("maya")
        let story = try f.story(by: maya, hoursAgo: 1)
        try f.story(by: maya, hoursAgo: 2)
        _ = await report(f, ["subject": .object(["uri": .string(story.description), "cid": .string("x")]), "label": .string("spam")], as: owner)
        #expect(throws: BackendStore.HouseholdError.notOwner) { try f.backend.store.moderation.hideRecord(story, by: maya, now: f.clock.now) }
        try f.backend.store.moderation.hideRecord(story, by: owner, now: f.clock.now)

        let actor = "actor=\(encode(maya.rawValue))"
        let authors = try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors")
        #expect(authors.authors.first?.storyCount == 1, "a hidden story no longer counts")
        #expect(try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", actor).stories.count == 1)
        #expect(try await f.query(StoriesOutput.self, "social.grain.unspecced.getStoryArchive", actor).stories.count == 1)
        #expect(await f.xrpc("social.grain.unspecced.getStory", "story=\(encode(story.description))").json == .object([:]))
        #expect(await f.xrpc("dev.hatk.getRecord", "uri=\(encode(story.description))").status == 404)
        let cid = try #require(try f.backend.store.records.record(story)?.value["media"]?["ref"]?["$link"]?.stringValue)
        #expect(await f.get("/img/feed_fullsize/\(maya.rawValue)/\(cid)").status == 404)
        let resolved = try f.backend.store.moderation.reports(includeResolved: true, by: owner)
        #expect(resolved.first?.resolution == "hidden")
        #expect(try f.backend.store.moderation.reports(by: owner).isEmpty, "no open report is left")

        try f.backend.store.moderation.unhideRecord(story, by: owner)
        #expect(try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", actor).stories.count == 2)
        #expect(await f.get("/img/feed_fullsize/\(maya.rawValue)/\(cid)").status == 200)
    }

    @Test("describeLabels lists Grain's eight definitions with their severity, blurs and default setting")
    func describeLabels() async throws {
        let f = try BackendFixture()
        let output = try await f.query(DescribeLabelsOutput.self, "dev.hatk.describeLabels")
        let definitions = try #require(output.definitions)
        #expect(definitions.map(\.identifier) == ["copyright", "gore", "harassment", "misleading", "nudity", "other", "sexual", "spam"])
        let nudity = try #require(definitions.first { $0.identifier == "nudity" })
        #expect((nudity.severity, nudity.blurs, nudity.defaultSetting) == ("inform", "media", "warn"))
        #expect(nudity.locales?.first?.name == "Nudity")
    }
}
