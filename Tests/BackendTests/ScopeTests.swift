import ATProto
import Foundation
import HTTPServer
import Lexicon
import TestSupport
import Testing

@testable import Backend

struct ScopeTests {
    @Test("granted scopes are read as the atproto permission spec writes them")
    func grantedScopeTable() {
        let cases: [(scope: String, collection: String, action: GrantedScope.Action, allowed: Bool)] = [
            ("atproto repo:social.grain.story", "social.grain.story", .create, true),
            ("atproto repo:social.grain.story", "social.grain.story", .delete, true),
            ("atproto repo:social.grain.story", "social.grain.favorite", .create, false),
            ("repo:social.grain.story", "social.grain.story", .create, false),  // no atproto, nothing
            ("atproto repo:app.bsky.feed.post?action=create", "app.bsky.feed.post", .create, true),
            ("atproto repo:app.bsky.feed.post?action=create", "app.bsky.feed.post", .delete, false),
            ("atproto repo?collection=social.grain.comment&collection=social.grain.favorite&action=delete", "social.grain.favorite", .delete, true),
            ("atproto repo?collection=social.grain.comment&collection=social.grain.favorite&action=delete", "social.grain.favorite", .create, false),
            ("atproto repo:*", "social.grain.graph.block", .update, true),
            ("atproto transition:generic", "social.grain.comment", .create, true),
            ("atproto rpc:social.grain.story?aud=*", "social.grain.story", .create, false),
        ]
        for c in cases {
            #expect(GrantedScope(c.scope).allowsRepo(c.collection, c.action) == c.allowed, "\(c.scope) \(c.action) \(c.collection)")
        }
        #expect(GrantedScope("atproto blob:image/*").allowsBlob("image/jpeg"))
        #expect(!GrantedScope("atproto blob:image/*").allowsBlob("video/mp4"))
        #expect(GrantedScope("atproto blob:*/*").allowsBlob("image/png"))
        #expect(GrantedScope("atproto blob?accept=image/png&accept=image/jpeg").allowsBlob("image/jpeg"))
        #expect(!GrantedScope("atproto repo:social.grain.story").allowsBlob("image/jpeg"))
        #expect(GrantedScope("atproto transition:generic").allowsBlob("image/png"))
        #expect(!GrantedScope("blob:image/*").allowsBlob("image/png"))
    }

    @Test("a token without the scope a procedure needs gets hatk's 401 ScopeMissingError, and nothing is written")
    func proceduresCheckScope() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let story = try f.story(by: maya, hoursAgo: 1)
        let storyOnly = "atproto repo:social.grain.story blob:image/*"
        let favorite: JSONValue = .object([
            "collection": .string(FavoriteRecord.collection),
            "record": .object(["subject": .string(story.description), "createdAt": .string(f.clock.now.iso8601)]),
        ])
        let refused = await f.post("dev.hatk.createRecord", as: maya, scope: storyOnly, json: favorite)
        #expect(refused.status == 401)
        #expect(refused.json?["error"] == .string("ScopeMissingError"))
        #expect(try f.backend.store.records.records(of: maya.rawValue, collection: FavoriteRecord.collection).isEmpty)
        #expect(await f.post("dev.hatk.createRecord", as: maya, scope: "atproto repo:social.grain.favorite", json: favorite).status == 200)

        let delete: JSONValue = .object(["collection": .string(StoryRecord.collection), "rkey": .string(story.rkey)])
        #expect(await f.post("dev.hatk.deleteRecord", as: maya, scope: "atproto repo:social.grain.story?action=create", json: delete).status == 401)
        #expect(try f.backend.store.records.record(story) != nil)

        let jpeg = try BackendFixture.jpeg(width: 20, height: 20)
        let upload = await f.post("dev.hatk.uploadBlob", as: maya, scope: "atproto repo:social.grain.story", contentType: "image/jpeg", body: jpeg)
        #expect(upload.status == 401)
        #expect(await f.post("dev.hatk.uploadBlob", as: maya, scope: "atproto blob:image/*", contentType: "image/jpeg", body: jpeg).status == 200)

        let mute: JSONValue = .object(["actor": .string("did:plc:aaaaaaaaaaaaaaaaaaaaaaaa")])
        #expect(await f.post("social.grain.graph.muteActor", as: maya, scope: "transition:generic", json: mute).status == 401, "no atproto, nothing")
        #expect(await f.post("social.grain.graph.muteActor", as: maya, scope: "atproto", json: mute).status == 200)
    }

    @Test("putRecord needs update on an existing record and create on a new one")
    func putRecordActions() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let profile: JSONValue = .object([
            "collection": .string(ProfileRecord.collection), "rkey": .string("self"),
            "record": .object(["displayName": .string("Maya")]),
        ])
        let createOnly = "atproto repo:social.grain.actor.profile?action=create"
        #expect(await f.post("dev.hatk.putRecord", as: maya, scope: createOnly, json: profile).status == 200)
        #expect(await f.post("dev.hatk.putRecord", as: maya, scope: createOnly, json: profile).status == 401)
        #expect(
            await f.post("dev.hatk.putRecord", as: maya, scope: "atproto repo:social.grain.actor.profile?action=update", json: profile).status == 200)
    }

    @Test("Grain's own scope string covers every procedure the front calls")
    func grainScopeCoversTheFront() async throws {
        let scope = GrantedScope(HeaderAuthenticator.grainScope)
        for collection in [
            StoryRecord.collection, FavoriteRecord.collection, CommentRecord.collection, BlockRecord.collection, ProfileRecord.collection,
        ] {
            for action in GrantedScope.Action.allCases { #expect(scope.allowsRepo(collection, action), "\(collection) \(action)") }
        }
        #expect(scope.allowsRepo("app.bsky.feed.post", .create))
        #expect(scope.allowsBlob("image/jpeg") && scope.allowsBlob("image/png"))
        #expect(scope.hasAtproto)
    }
}

/// The scope table covers every procedure the backend serves.
struct ProcedureTableTests {
    @Test("every procedure refuses a token without atproto, and answers hatk's status when nobody is signed in")
    func everyProcedure() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        for procedure in Procedure.allCases {
            let contentType = procedure == .uploadBlob ? "image/jpeg" : "application/json"
            let refused = await f.post(procedure.rawValue, as: maya, scope: "transition:generic", contentType: contentType, body: Array("{}".utf8))
            #expect(refused.status == 401, "\(procedure.rawValue)")
            #expect(refused.json?["error"] == .string("ScopeMissingError"), "\(procedure.rawValue)")
            let anonymous = await f.post(procedure.rawValue, as: nil, contentType: contentType, body: Array("{}".utf8))
            #expect(anonymous.status == procedure.unauthenticated.status.code, "\(procedure.rawValue)")
            #expect(anonymous.json?["error"] == .string("Authentication required"), "\(procedure.rawValue)")
        }
        let expected500 = Procedure.allCases.filter { $0.unauthenticated.status == .internalServerError }.map(\.rawValue)
        #expect(
            Set(expected500) == ["social.grain.graph.muteActor", "social.grain.graph.unmuteActor", "social.grain.unspecced.markStoriesViewed"],
            "Grain's handlers that throw a plain Error")
    }
}
