import ATProto
import Backend
import Foundation
import HTTPServer
import Lexicon
import TestSupport
import Testing

struct WriteTests {
    func storyRecord(_ blob: JSONValue, createdAt: String = "2026-08-19T11:00:00.000Z") -> JSONValue {
        .object([
            "media": blob, "aspectRatio": .object(["width": .integer(60), "height": .integer(80)]),
            "createdAt": .string(createdAt),
        ])
    }

    @Test("writes without a viewer answer 401 Authentication required")
    func writesNeedAViewer() async throws {
        let f = try BackendFixture()
        for nsid in ["dev.hatk.uploadBlob", "dev.hatk.createRecord", "dev.hatk.putRecord", "dev.hatk.deleteRecord"] {
            let (status, json) = await f.post(nsid, as: nil, body: Array("{}".utf8))
            #expect(status == 401)
            #expect(json == .object(["error": .string("Authentication required")]))
        }
    }

    @Test("uploadBlob stores the raw body and returns a blob ref in hatk's exact shape")
    func uploadBlob() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jpeg = try BackendFixture.jpeg(width: 40, height: 30)
        let (status, json) = await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg)
        #expect(status == 200)
        let blob = try #require(json?["blob"])
        #expect(
            blob
                == .object([
                    "$type": .string("blob"), "ref": .object(["$link": .string(CID(hashing: jpeg, codec: .raw).description)]),
                    "mimeType": .string("image/jpeg"), "size": .integer(Int64(jpeg.count)),
                ]))
    }

    @Test("uploadBlob refuses other types, empty bodies and images that do not decode")
    func uploadBlobRefusals() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        #expect(await f.post("dev.hatk.uploadBlob", as: maya, contentType: "text/plain", body: Array("hi".utf8)).status == 415)
        #expect(await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: []).status == 400)
        let broken = await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
        #expect(broken.status == 400)
        #expect(broken.json?["error"]?.stringValue?.contains("not a readable") == true)
    }

    @Test("createRecord writes a valid story to the viewer's repo whatever repo says, and it is readable at once")
    func createStory() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let jpeg = try BackendFixture.jpeg(width: 60, height: 80)
        let blob = try #require(await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg).json?["blob"])
        let (status, json) = await f.post(
            "dev.hatk.createRecord", as: maya,
            json: .object([
                "collection": .string("social.grain.story"), "repo": .string(jonas.rawValue), "record": storyRecord(blob),
            ]))
        #expect(status == 200)
        let uri = try ATURI(try #require(json?["uri"]?.stringValue))
        #expect(uri.authority == maya.rawValue)
        #expect(json?["cid"]?.stringValue?.hasPrefix("bafyrei") == true)
        #expect(json?["validationStatus"] == .string("valid"))
        let stories = await f.xrpc("social.grain.unspecced.getStories", "actor=\(encode(maya.rawValue))")
        #expect(stories.json?["stories"]?.arrayCount == 1)
    }

    @Test("getStories answers an actor that is not a DID with hatk's 400 and an error; without an actor, no stories")
    func getStoriesActorMustBeADID() async throws {
        let f = try BackendFixture()
        _ = try f.account("maya")
        let garbage = await f.xrpc("social.grain.unspecced.getStories", "actor=garbage")
        #expect(garbage.status == 400 && garbage.json?["error"]?.stringValue?.contains("did") == true, "\(garbage.status)")
        let handle = await f.xrpc("social.grain.unspecced.getStories", "actor=maya.home.test")
        #expect(handle.status == 400, "a handle is not resolved, as hatk does not")
        let missing = await f.xrpc("social.grain.unspecced.getStories")
        #expect(missing.status == 200 && missing.json?["stories"]?.arrayCount == 0)
    }

    @Test("an invalid record is refused with InvalidRecord and the path of the problem")
    func invalidRecords() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jpeg = try BackendFixture.jpeg(width: 60, height: 80)
        let blob = try #require(await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg).json?["blob"])
        func create(_ record: JSONValue) async -> (Int, String?) {
            let r = await f.post("dev.hatk.createRecord", as: maya, json: .object(["collection": .string("social.grain.story"), "record": record]))
            return (r.status, r.json?["error"]?.stringValue)
        }
        var noRatio = storyRecord(blob)
        if case .object(var o) = noRatio { o["aspectRatio"] = nil; noRatio = .object(o) }
        #expect(await create(noRatio) == (400, "InvalidRecord: record/aspectRatio: is required"))
        #expect(await create(storyRecord(blob, createdAt: "yesterday")).1 == "InvalidRecord: record/createdAt: must be an RFC 3339 datetime")
        #expect(await create(storyRecord(.string("nope"))).1 == "InvalidRecord: record/media: must be a blob reference")
        let foreign: JSONValue = .object([
            "$type": .string("blob"), "ref": .object(["$link": .string(CID(hashing: [1], codec: .raw).description)]),
            "mimeType": .string("image/jpeg"), "size": .integer(1),
        ])
        #expect(await create(storyRecord(foreign)).1?.contains("was not uploaded by this account") == true)
        let unknown = await f.post(
            "dev.hatk.createRecord", as: maya, json: .object(["collection": .string("app.example.thing"), "record": .object([:])]))
        #expect(unknown.status == 400)
        #expect(await f.post("dev.hatk.createRecord", as: maya, body: Array("not json".utf8)).status == 400)
        #expect(try f.backend.store.stories.activeStories(of: maya.rawValue, now: f.clock.now).isEmpty, "nothing was written")
    }

    @Test("a createdAt more than five minutes ahead of the server's clock is refused, so no story pins itself to the strip")
    func futureCreatedAtRefused() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jpeg = try BackendFixture.jpeg(width: 60, height: 80)
        let blob = try #require(await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg).json?["blob"])
        let nextWeek = f.clock.now.adding(seconds: 7 * 86400).iso8601
        let refused = await f.create(StoryRecord.collection, storyRecord(blob, createdAt: nextWeek), as: maya)
        #expect(refused.status == 400)
        #expect(refused.json?["error"]?.stringValue?.contains("more than 5 minutes in the future") == true)
        let comment = await f.create(
            CommentRecord.collection,
            .object([
                "text": .string("hi"), "subject": .string("at://\(maya.rawValue)/social.grain.story/3jzfcijpj2z2a"), "createdAt": .string(nextWeek),
            ]),
            as: maya)
        #expect(comment.status == 400, "comments and favourites too: they would head every list")
        #expect(try f.backend.store.stories.storyAuthors(now: f.clock.now).isEmpty)
        let slightlyAhead = f.clock.now.adding(seconds: 4 * 60).iso8601
        #expect(await f.create(StoryRecord.collection, storyRecord(blob, createdAt: slightlyAhead), as: maya).status == 200, "clocks drift")
    }

    @Test("deleteRecord removes one's own story and answers 403 for someone else's repo")
    func deleteOwnOnly() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let uri = try f.story(by: maya, hoursAgo: 1)
        let forbidden = await f.post(
            "dev.hatk.deleteRecord", as: jonas,
            json: .object([
                "collection": .string("social.grain.story"), "rkey": .string(uri.rkey), "repo": .string(maya.rawValue),
            ]))
        #expect(forbidden.status == 403)
        #expect(try f.backend.store.records.record(uri) != nil)
        let deleted = await f.post(
            "dev.hatk.deleteRecord", as: maya,
            json: .object([
                "collection": .string("social.grain.story"), "rkey": .string(uri.rkey),
            ]))
        #expect(deleted.status == 200)
        #expect(try f.backend.store.records.record(uri) == nil)
    }

    @Test("putRecord sets the profile's display name and avatar")
    func putProfile() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jpeg = try BackendFixture.jpeg(width: 64, height: 64)
        let blob = try #require(await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg).json?["blob"])
        let (status, _) = await f.post(
            "dev.hatk.putRecord", as: maya,
            json: .object([
                "collection": .string("social.grain.actor.profile"), "rkey": .string("self"),
                "record": .object(["displayName": .string("Maya C."), "avatar": blob]),
            ]))
        #expect(status == 200)
        let profile = await f.xrpc("social.grain.unspecced.getActorProfile", "actor=maya.home.test")
        #expect(profile.json?["displayName"] == .string("Maya C."))
        #expect(profile.json?["avatar"]?.stringValue?.contains("/img/avatar/") == true)
        let tooLong = await f.post(
            "dev.hatk.putRecord", as: maya,
            json: .object([
                "collection": .string("social.grain.actor.profile"), "rkey": .string("self"),
                "record": .object(["displayName": .string(String(repeating: "x", count: 65))]),
            ]))
        #expect(tooLong.status == 400)
    }
}

extension JSONValue {
    var arrayCount: Int? {
        if case .array(let a) = self { return a.count }
        return nil
    }
}

/// Test-only: requires a nonce and never accepts the request.
struct ChallengingAuthenticator: ViewerAuthenticator {
    func viewer(for request: Request) async -> AuthenticatedViewer? { nil }
    func dpopChallenge(for request: Request) -> (nonce: String, wwwAuthenticate: String)? {
        ("n-123", #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#)
    }
    func currentDPoPNonce() -> String? { "n-123" }
}

struct NonceChallengeTests {
    @Test("a write whose proof lacks the required nonce gets 401 with the DPoP challenge and the nonce")
    func challenge() async throws {
        let f = try BackendFixture(authenticator: ChallengingAuthenticator())
        let response = await f.router.respond(
            to: Request(
                method: .post, path: "/xrpc/dev.hatk.createRecord", headers: ["Content-Type": "application/json"], body: Array("{}".utf8)))
        #expect(response.status.code == 401)
        #expect(response.headers["DPoP-Nonce"] == "n-123")
        #expect(response.headers["WWW-Authenticate"]?.contains("use_dpop_nonce") == true)
    }
}
