import ATProto
import Backend
import Foundation
import Lexicon
import TestSupport
import Testing

struct MuteBlockTests {
    func mute(_ f: BackendFixture, _ actor: DID, by viewer: DID?, undo: Bool = false) async -> (status: Int, json: JSONValue?) {
        await f.post(
            undo ? "social.grain.graph.unmuteActor" : "social.grain.graph.muteActor", as: viewer,
            json: .object(["actor": .string(actor.rawValue)]))
    }

    @Test("the strip drops authors the viewer muted and authors blocked in either direction; getStories does not")
    func stripFiltering() async throws {
        let f = try BackendFixture()
        let viewer = try f.account("viewer")
        let muted = try f.account("muted")
        let blocked = try f.account("blocked")
        let blocker = try f.account("blocker")
        let friend = try f.account("friend")
        for (i, did) in [viewer, muted, blocked, blocker, friend].enumerated() { try f.story(by: did, hoursAgo: Double(i + 1)) }
        #expect(await mute(f, muted, by: viewer) == (200, .object([:])))
        _ = try await f.block(blocked, by: viewer)
        _ = try await f.block(viewer, by: blocker)

        let signedIn = try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors", as: viewer)
        #expect(signedIn.authors.map(\.profile.did) == [viewer.rawValue, friend.rawValue])
        let anonymous = try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors")
        #expect(anonymous.authors.count == 5)
        let mutedOwn = try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors", as: muted)
        #expect(mutedOwn.authors.count == 5, "a mute is private to the muter")
        let stories = try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", "actor=\(encode(blocked.rawValue))", as: viewer)
        #expect(stories.stories.count == 1, "hatk filters only the strip: the front filters the rest")

        let relationships = try f.backend.queries.relationships(of: viewer)
        #expect(relationships.muted == [muted.rawValue])
        #expect(relationships.blocking.keys.sorted() == [blocked.rawValue])
        #expect(relationships.blockedBy == [blocker.rawValue])
        #expect(relationships.hiddenAuthors == [muted.rawValue, blocked.rawValue, blocker.rawValue])

        #expect(await mute(f, muted, by: viewer, undo: true).status == 200)
        let unmuted = try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors", as: viewer)
        #expect(unmuted.authors.map(\.profile.did).contains(muted.rawValue))
    }

    @Test("muteActor answers hatk's 500s: no viewer, muting yourself; and a 400 for an actor that is not a DID")
    func muteErrors() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        #expect(await mute(f, maya, by: nil) == (500, .object(["error": .string("Authentication required")])))
        #expect(await mute(f, maya, by: nil, undo: true) == (500, .object(["error": .string("Authentication required")])))
        #expect(await mute(f, maya, by: maya) == (500, .object(["error": .string("Cannot mute yourself")])))
        let notDID = await f.post("social.grain.graph.muteActor", as: maya, json: .object(["actor": .string("jonas.home.test")]))
        #expect(notDID.status == 400)
    }

    @Test("getMutes and getBlocks list whom the viewer muted and blocks, with the block record for undo")
    func lists() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas", displayName: "Jonas")
        let ines = try f.account("ines")
        _ = await mute(f, jonas, by: maya)
        let block = try await f.block(ines, by: maya)
        #expect(try await f.block(ines, by: maya) == block, "blocking twice gives the first block back")
        let mutes = try await f.query(GraphListOutput.self, "social.grain.unspecced.getMutes", as: maya)
        #expect(mutes.items == [GraphItem(did: jonas.rawValue, handle: "jonas.home.test", displayName: "Jonas")])
        let blocks = try await f.query(GraphListOutput.self, "social.grain.unspecced.getBlocks", as: maya)
        #expect(blocks.items.map(\.blockUri) == [block.description])
        #expect(await f.xrpc("social.grain.unspecced.getMutes").status == 400, "hatk's InvalidRequestError: Authentication required")
        #expect(await f.delete(block, as: maya) == 200)
        #expect(try await f.query(GraphListOutput.self, "social.grain.unspecced.getBlocks", as: maya).items.isEmpty)
    }

    @Test("getActorProfile tells a signed-in viewer whether they block, are blocked by, or muted the actor")
    func profileViewerState() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let block = try await f.block(jonas, by: maya)
        _ = await mute(f, jonas, by: maya)
        let asMaya = try await f.query(ProfileViewDetailed.self, "social.grain.unspecced.getActorProfile", "actor=jonas.home.test", as: maya)
        #expect(asMaya.viewer == ProfileViewerState(blocking: block.description, muted: true))
        let asJonas = try await f.query(ProfileViewDetailed.self, "social.grain.unspecced.getActorProfile", "actor=maya.home.test", as: jonas)
        #expect(asJonas.viewer == ProfileViewerState(blockedBy: true))
        let anonymous = try await f.query(ProfileViewDetailed.self, "social.grain.unspecced.getActorProfile", "actor=jonas.home.test")
        #expect(anonymous.viewer == nil)
        let spoofed = try await f.query(
            ProfileViewDetailed.self, "social.grain.unspecced.getActorProfile", "actor=jonas.home.test&viewer=\(encode(maya.rawValue))")
        #expect(spoofed.viewer == nil, "whom someone muted is not told to whoever names them")
    }

    @Test("a block must name a DID other than the author's own")
    func blockValidation() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let yourself = await f.create(
            BlockRecord.collection, .object(["subject": .string(maya.rawValue), "createdAt": .string(f.clock.now.iso8601)]), as: maya)
        #expect(yourself.status == 400)
        let handle = await f.create(
            BlockRecord.collection, .object(["subject": .string("jonas.home.test"), "createdAt": .string(f.clock.now.iso8601)]), as: maya)
        #expect(handle.json?["error"] == .string("InvalidRecord: record/subject: must be a DID"))
    }
}
