import ATProto
import Backend
import Foundation
import Testing

/// Every XRPC output of the embedded backend, checked against the published lexicon documents.
struct LexiconConformanceTests {
    @Test("every query's output validates against its lexicon, with demo data and with labels and locations")
    func outputsMatchLexicons() async throws {
        let lexicons = try LexiconValidator()
        let f = try BackendFixture()
        try DemoHousehold.seed(into: f.backend, photos: demoPhotos, handleDomain: "home.test", now: f.clock.now)
        let maya = try #require(try f.backend.store.account("maya.home.test")).did
        let labelled = try f.story(by: maya, hoursAgo: 0.1, labels: ["nudity"])
        let did = encode(maya.rawValue)
        let calls: [(String, String)] = [
            ("social.grain.unspecced.getStoryAuthors", ""),
            ("social.grain.unspecced.getStories", "actor=\(did)"),
            ("social.grain.unspecced.getStory", "story=\(encode(labelled.description))"),
            ("social.grain.unspecced.getStory", "story=\(encode("at://\(maya.rawValue)/social.grain.story/3jzfcijpj2z2a"))"),
            ("social.grain.unspecced.getStoryArchive", "actor=\(did)&limit=2"),
            ("social.grain.unspecced.getActorProfile", "actor=maya.home.test"),
            ("dev.hatk.getRecord", "uri=\(encode(labelled.description))"),
        ]
        for (nsid, query) in calls {
            let (status, json, _) = await f.xrpc(nsid, query)
            #expect(status == 200, "\(nsid)")
            let output = try #require(json, "\(nsid) returned no JSON")
            let problems = lexicons.validateOutput(output, of: nsid)
            #expect(problems.isEmpty, "\(nsid)?\(query): \(problems)")
        }
    }

    @Test("the validator itself catches a missing required field and a malformed DID")
    func validatorCanFail() throws {
        let lexicons = try LexiconValidator()
        let bad: JSONValue = .object([
            "authors": .array([
                .object([
                    "profile": .object(["cid": .string(""), "did": .string("not-a-did"), "handle": .string("a.test")]),
                    "latestAt": .string("2026-08-19T12:00:00.000Z"),
                ])
            ])
        ])
        let problems = lexicons.validateOutput(bad, of: "social.grain.unspecced.getStoryAuthors")
        #expect(problems.contains { $0.contains("storyCount") })
        #expect(problems.contains { $0.contains("not-a-did") })
    }
}
