import ATProto
import Backend
import Foundation
import Lexicon
import TestSupport
import Testing

/// Every XRPC output of the embedded backend, checked against the published lexicon documents.
struct LexiconConformanceTests {
    @Test("every query's output validates against its lexicon, with demo data and with labels and locations")
    func outputsMatchLexicons() async throws {
        let lexicons = try LexiconValidator()
        let f = try BackendFixture()
        try DemoHousehold.seed(into: f.backend, photos: demoPhotos, handleDomain: "home.test", now: f.clock.now)
        let maya = try #require(try f.backend.store.accounts.account("maya.home.test")).did
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

    @Test("every output of the social methods validates: signed in, with favourites, comments, mutes, blocks and seen marks")
    func socialOutputsMatchLexicons() async throws {
        let lexicons = try LexiconValidator()
        let f = try BackendFixture()
        let maya = try f.account("maya", displayName: "Maya")
        let jonas = try f.account("jonas")
        let ines = try f.account("ines")
        let ola = try f.account("ola")
        let story = try f.story(by: maya, hoursAgo: 1, labels: ["nudity"])
        let storyCID = try #require(try f.backend.store.records.record(story)).cid
        _ = try await f.favorite(story, by: jonas)
        _ = try await f.favorite(story, by: ola)
        _ = try await f.comment("from ola", on: story, by: ola, minutesAgo: 3)
        let comment = try await f.comment("nice", on: story, by: jonas, minutesAgo: 5)
        _ = try await f.comment("thanks", on: story, by: maya, minutesAgo: 1, replyTo: comment)
        _ = try await f.block(ines, by: maya)
        _ = await f.post("social.grain.graph.muteActor", as: maya, json: .object(["actor": .string(jonas.rawValue)]))
        _ = await f.post("social.grain.unspecced.markStoriesViewed", as: jonas, json: .object(["stories": .array([.string(story.description)])]))

        let did = encode(maya.rawValue)
        let subject = encode(story.description)
        let calls: [(String, String, DID?)] = [
            ("social.grain.unspecced.getStoryAuthors", "", jonas),
            ("social.grain.unspecced.getStories", "actor=\(did)", jonas),
            ("social.grain.unspecced.getStory", "story=\(subject)", jonas),
            ("social.grain.unspecced.getStoryArchive", "actor=\(did)", jonas),
            ("social.grain.unspecced.getActorProfile", "actor=ines.home.test", maya),
            ("social.grain.unspecced.getCommentThread", "subject=\(subject)", maya),
            ("social.grain.unspecced.getCommentThread", "subject=\(subject)&limit=1", nil),
            ("social.grain.unspecced.getNotifications", "", maya),
            ("social.grain.unspecced.getNotifications", "countOnly=true", maya),
            ("social.grain.unspecced.getMutes", "", maya),
            ("social.grain.unspecced.getBlocks", "", maya),
            ("dev.hatk.describeLabels", "", nil),
            ("dev.hatk.getPreferences", "", maya),
        ]
        for (nsid, query, viewer) in calls {
            let (status, json, _) = await f.xrpc(nsid, query, as: viewer)
            #expect(status == 200, "\(nsid)")
            let output = try #require(json, "\(nsid) returned no JSON")
            let problems = lexicons.validateOutput(output, of: nsid)
            #expect(problems.isEmpty, "\(nsid)?\(query): \(problems)")
        }
        let notifications = try await f.query(NotificationsOutput.self, "social.grain.unspecced.getNotifications", as: maya)
        #expect(!notifications.notifications.isEmpty, "the notifications checked are not an empty list")

        let procedures: [(String, JSONValue, DID)] = [
            (
                "dev.hatk.createReport",
                .object(["subject": .object(["uri": .string(story.description), "cid": .string(storyCID)]), "label": .string("spam")]), jonas
            ),
            (
                "dev.hatk.createReport",
                .object(["subject": .object(["did": .string(maya.rawValue)]), "label": .string("other"), "reason": .string("x")]), jonas
            ),
            ("social.grain.graph.muteActor", .object(["actor": .string(ines.rawValue)]), jonas),
            ("social.grain.graph.unmuteActor", .object(["actor": .string(ines.rawValue)]), jonas),
            ("social.grain.unspecced.markStoriesViewed", .object(["stories": .array([.string(story.description)])]), maya),
            ("dev.hatk.putPreference", .object(["key": .string("lastSeenNotifications"), "value": .string(f.clock.now.iso8601)]), maya),
        ]
        for (nsid, input, viewer) in procedures {
            #expect(lexicons.validateInput(input, of: nsid).isEmpty, "the test's own \(nsid) input is valid")
            let (status, json) = await f.post(nsid, as: viewer, json: input)
            #expect(status == 200, "\(nsid): \(String(describing: json))")
            let problems = lexicons.validateOutput(try #require(json), of: nsid)
            #expect(problems.isEmpty, "\(nsid): \(problems)")
        }
        // The viewed-state fields are present, so the checks above covered them (the lexicons declare them since
        // Grain's d703c32).
        let strip = await f.xrpc("social.grain.unspecced.getStoryAuthors", as: jonas).json
        guard case .array(let authors)? = strip?["authors"] else {
            Issue.record("getStoryAuthors: \(String(describing: strip))")
            return
        }
        let mayaAuthor = try #require(authors.first { $0["profile"]?["did"]?.stringValue == maya.rawValue })
        #expect(mayaAuthor["unviewedCount"] == .integer(0))
        #expect(mayaAuthor["lastViewedAt"]?.stringValue != nil)
        let seen = await f.xrpc("social.grain.unspecced.getStory", "story=\(subject)", as: jonas).json
        #expect(seen?["story"]?["viewer"]?["viewed"] == .bool(true))

        // Writes of the social records through createRecord and deleteRecord answer with hatk's shapes.
        let writes: [(String, JSONValue)] = [
            (FavoriteRecord.collection, .object(["subject": .string(story.description), "createdAt": .string(f.clock.now.iso8601)])),
            (
                CommentRecord.collection,
                .object(["text": .string("hello"), "subject": .string(story.description), "createdAt": .string(f.clock.now.iso8601)])
            ),
            (BlockRecord.collection, .object(["subject": .string(ines.rawValue), "createdAt": .string(f.clock.now.iso8601)])),
        ]
        for (collection, record) in writes {
            #expect(lexicons.validateRecord(record, of: collection).isEmpty, "the test's own \(collection) record is valid")
            let input: JSONValue = .object(["repo": .string(ola.rawValue), "collection": .string(collection), "record": record])
            #expect(lexicons.validateInput(input, of: "dev.hatk.createRecord").isEmpty)
            let (status, json) = await f.post("dev.hatk.createRecord", as: ola, json: input)
            #expect(status == 200, "createRecord \(collection): \(String(describing: json))")
            let output = try #require(json, "createRecord \(collection) returned no JSON")
            #expect(lexicons.validateOutput(output, of: "dev.hatk.createRecord").isEmpty, "createRecord \(collection): \(output)")
            let uri = try ATURI(try #require(output["uri"]?.stringValue))
            #expect(uri.collection == collection)
            let delete: JSONValue = .object(["collection": .string(collection), "rkey": .string(uri.rkey)])
            #expect(lexicons.validateInput(delete, of: "dev.hatk.deleteRecord").isEmpty)
            let (deleted, deleteJSON) = await f.post("dev.hatk.deleteRecord", as: ola, json: delete)
            #expect(deleted == 200, "deleteRecord \(collection)")
            let deleteOutput = try #require(deleteJSON, "deleteRecord \(collection) returned no JSON")
            #expect(lexicons.validateOutput(deleteOutput, of: "dev.hatk.deleteRecord").isEmpty, "deleteRecord \(collection)")
            #expect(try f.backend.store.records.record(uri) == nil, "\(collection) was deleted")
        }

        for collection in [FavoriteRecord.collection, CommentRecord.collection, BlockRecord.collection] {
            for stored in try f.backend.store.records.records(
                of: collection == FavoriteRecord.collection ? jonas.rawValue : maya.rawValue, collection: collection)
            {
                let problems = lexicons.validateRecord(stored.value, of: collection)
                #expect(problems.isEmpty, "\(collection): \(problems)")
            }
        }
    }

    @Test("the validator catches a notification without an author, a bad viewer.fav or viewer.viewed, a bad unviewedCount or lastViewedAt")
    func validatorCatchesSocialShapes() throws {
        let lexicons = try LexiconValidator()
        let notification: JSONValue = .object([
            "notifications": .array([
                .object([
                    "uri": .string("at://did:plc:x/social.grain.favorite/1"), "reason": .string("story-favorite"),
                    "createdAt": .string("2026-08-19T12:00:00.000Z"),
                ])
            ])
        ])
        #expect(lexicons.validateOutput(notification, of: "social.grain.unspecced.getNotifications").contains { $0.contains("author") })
        // One getStories output whose only story carries `viewer`.
        func stories(viewer: JSONValue) -> JSONValue {
            .object([
                "stories": .array([
                    .object([
                        "uri": .string("at://did:plc:x/social.grain.story/1"), "cid": .string(""), "thumb": .string("https://x/t"),
                        "fullsize": .string("https://x/f"), "createdAt": .string("2026-08-19T12:00:00.000Z"),
                        "creator": .object(["cid": .string(""), "did": .string("did:plc:x"), "handle": .string("x.test")]),
                        "aspectRatio": .object(["width": .integer(1), "height": .integer(1)]),
                        "viewer": viewer,
                    ])
                ])
            ])
        }
        let story = stories(viewer: .object(["fav": .string("not a uri")]))
        #expect(lexicons.validateOutput(story, of: "social.grain.unspecced.getStories").contains { $0.contains("viewer.fav") })
        let viewedAsText = stories(viewer: .object(["viewed": .string("yes")]))
        #expect(lexicons.validateOutput(viewedAsText, of: "social.grain.unspecced.getStories").contains { $0.contains("viewer.viewed") })
        let author: JSONValue = .object([
            "authors": .array([
                .object([
                    "profile": .object(["cid": .string(""), "did": .string("did:plc:x"), "handle": .string("x.test")]),
                    "storyCount": .integer(1), "latestAt": .string("2026-08-19T12:00:00.000Z"),
                    "unviewedCount": .string("1"), "lastViewedAt": .string("yesterday"),
                ])
            ])
        ])
        let authorProblems = lexicons.validateOutput(author, of: "social.grain.unspecced.getStoryAuthors")
        #expect(authorProblems.contains { $0.contains("unviewedCount") })
        #expect(authorProblems.contains { $0.contains("lastViewedAt") })
        let report: JSONValue = .object(["subject": .object(["cid": .string("x")]), "label": .string("spam")])
        #expect(lexicons.validateInput(report, of: "dev.hatk.createReport").contains { $0.contains("union") })
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
