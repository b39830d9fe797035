import ATProto
import Backend
import Backups
import Foundation
import Lexicon
import TestSupport
import Testing
import Units

struct MemberAdministrationTests {
    func filesExist(_ f: BackendFixture, _ cid: String) -> Bool {
        FileManager.default.fileExists(atPath: f.backend.blobs.path(cid: cid, preset: .fullsize))
    }

    func media(_ f: BackendFixture, _ uri: ATURI) throws -> String {
        try #require(try f.backend.store.records.record(uri)?.value["media"]?["ref"]?["$link"]?.stringValue)
    }

    @Test("the member list shows each account's role, status, records and the bytes of the blobs it owns")
    func memberList() throws {
        let f = try BackendFixture()
        let owner = try f.backend.store.household.createOwner(handle: "ana.home.test", now: f.clock.now)
        let ben = try f.account("ben")
        let story = try f.story(by: ben, hoursAgo: 1)
        let size = Int(try #require(try f.backend.store.records.record(story)?.value["media"]?["size"]?.intValue))
        let members = try f.backend.store.members.all()
        #expect(members.map(\.handle) == ["ana.home.test", "ben.home.test"])
        #expect(members[0].isOwner && members[0].did == owner.did.rawValue)
        #expect(members[1].storageBytes == size && size > 0)
        #expect(members[1].recordCount == 1)
        #expect(members[1].status == "active")
        #expect(try f.backend.store.members.storage(of: ben) == (size, nil))
    }

    @Test("a disabled member is marked so; enabling restores it; the owner cannot be disabled or removed")
    func disableAndEnable() throws {
        let f = try BackendFixture()
        let owner = try f.backend.store.household.createOwner(handle: "ana.home.test", now: f.clock.now)
        _ = try f.account("ben")
        try f.backend.store.members.setDisabled(true, member: "ben.home.test", now: f.clock.now)
        #expect(try f.backend.store.accounts.account("ben.home.test")?.isActive == false)
        #expect(try f.backend.store.members.member("ben.home.test")?.status == "disabled")
        try f.backend.store.members.setDisabled(false, member: "ben.home.test", now: f.clock.now)
        #expect(try f.backend.store.accounts.account("ben.home.test")?.isActive == true)
        #expect(throws: BackendStore.MemberError.ownerProtected) {
            try f.backend.store.members.setDisabled(true, member: owner.handle, now: f.clock.now)
        }
        #expect(throws: BackendStore.MemberError.ownerProtected) {
            _ = try f.backend.store.members.scheduleRemoval(of: owner.did.rawValue, now: f.clock.now)
        }
        #expect(throws: BackendStore.MemberError.self) { try f.backend.store.members.setDisabled(true, member: "nobody", now: f.clock.now) }
    }

    @Test("a removal waits out its grace period, can be undone until then, and then deletes the member's records and blobs")
    func removalAfterGrace() async throws {
        let f = try BackendFixture()
        _ = try f.backend.store.household.createOwner(handle: "ana.home.test", now: f.clock.now)
        let ben = try f.account("ben", displayName: "Ben")
        let cleo = try f.account("cleo")
        let story = try f.story(by: ben, hoursAgo: 1)
        let cid = try media(f, story)
        let kept = try f.story(by: cleo, hoursAgo: 2)

        let (did, due) = try f.backend.store.members.scheduleRemoval(of: "ben.home.test", now: f.clock.now)
        #expect(did == ben)
        #expect(due == f.clock.now.adding(seconds: BackendStore.removalGrace))
        #expect(try f.backend.store.accounts.account("ben.home.test")?.isActive == false)
        f.clock.advance(hours: 24 * 6)
        #expect(try await f.backend.removeDueMembers().isEmpty)
        // Undo within the grace period: nothing is lost.
        try f.backend.store.members.setDisabled(false, member: "ben.home.test", now: f.clock.now)
        f.clock.advance(hours: 24 * 2)
        #expect(try await f.backend.removeDueMembers().isEmpty)
        #expect(try f.backend.store.records.record(story) != nil)

        _ = try f.backend.store.members.scheduleRemoval(of: "ben.home.test", now: f.clock.now)
        f.clock.advance(seconds: BackendStore.removalGrace + 1)
        #expect(try await f.backend.removeDueMembers() == [ben])
        #expect(try f.backend.store.accounts.account(ben.rawValue) == nil)
        #expect(try f.backend.store.records.records(of: ben.rawValue, collection: StoryRecord.collection).isEmpty)
        #expect(try f.backend.store.records.records(of: ben.rawValue, collection: ProfileRecord.collection).isEmpty)
        #expect(!filesExist(f, cid))
        #expect(await f.get("/img/feed_fullsize/\(ben.rawValue)/\(cid)").status == 404)
        #expect(try f.backend.store.records.record(kept) != nil, "other members keep their stories")
        #expect(try f.backend.store.members.all().map(\.handle) == ["ana.home.test", "cleo.home.test"])
    }

    @Test("an upload past the member's quota is refused with a message naming the quota; a repeat of an owned blob is not")
    func quota() async throws {
        let f = try BackendFixture()
        let ben = try f.account("ben")
        let first = try BackendFixture.jpeg(width: 120, height: 90, seed: 1)
        #expect(await f.post("dev.hatk.uploadBlob", as: ben, contentType: "image/jpeg", body: first).status == 200)
        let used = try f.backend.store.members.storage(of: ben).used
        try f.backend.store.members.setQuota(used + 100, member: "ben.home.test")
        let second = try BackendFixture.jpeg(width: 120, height: 90, seed: 2)
        let refused = await f.post("dev.hatk.uploadBlob", as: ben, contentType: "image/jpeg", body: second)
        #expect(refused.status == 413)
        #expect(refused.json?["error"]?.stringValue == "QuotaExceeded")
        let message = try #require(refused.json?["message"]?.stringValue)
        #expect(message.contains("storage quota of \(ByteCount.text(used + 100))"))
        #expect(try f.backend.store.members.storage(of: ben).used == used, "nothing was stored")
        #expect(await f.post("dev.hatk.uploadBlob", as: ben, contentType: "image/jpeg", body: first).status == 200)
        try f.backend.store.members.setQuota(nil, member: "ben.home.test")
        #expect(await f.post("dev.hatk.uploadBlob", as: ben, contentType: "image/jpeg", body: second).status == 200)
    }

    @Test("byte counts read as people say them")
    func byteCounts() {
        #expect(ByteCount.text(999) == "999 bytes")
        #expect(ByteCount.text(1_500) == "1.5 kB")
        #expect(ByteCount.text(500_000_000) == "500 MB")
        #expect(ByteCount.text(1_250_000_000) == "1.3 GB")
        #expect(ByteCount.text(2_000_000_000) == "2 GB")
    }

    @Test("a revoked invitation can no longer be used, and the list tells open, used and revoked apart")
    func revokedInvitation() throws {
        let f = try BackendFixture()
        let owner = try f.backend.store.household.createOwner(handle: "ana.home.test", now: f.clock.now)
        let revoked = try f.backend.store.household.createInvite(by: owner.did, now: f.clock.now)
        f.clock.advance(seconds: 1)
        let used = try f.backend.store.household.createInvite(by: owner.did, now: f.clock.now)
        f.clock.advance(seconds: 1)
        _ = try f.backend.store.household.createInvite(by: owner.did, now: f.clock.now)
        _ = try f.backend.store.household.acceptInvite(used, handle: "ben.home.test", now: f.clock.now)
        let list = try f.backend.store.household.invitations()
        #expect(list.count == 3)
        let oldest = try #require(list.last)
        #expect(try f.backend.store.household.revokeInvitation(id: oldest.id, now: f.clock.now))
        #expect(try !f.backend.store.household.isInviteUsable(revoked, now: f.clock.now))
        #expect(throws: BackendStore.HouseholdError.inviteInvalid) {
            _ = try f.backend.store.household.acceptInvite(revoked, handle: "eve.home.test", now: f.clock.now)
        }
        let states = try f.backend.store.household.invitations().map { $0.state(now: f.clock.now) }
        #expect(states == ["open", "used", "revoked"])
        #expect(try f.backend.store.household.invitations()[1].usedBy == "ben.home.test")
        #expect(try !f.backend.store.household.revokeInvitation(id: list[1].id, now: f.clock.now), "a used invitation stays used")
    }

    @Test("while a backup holds the lock a deleted story's files stay; the next collection removes them")
    func removalsWaitForBackups() async throws {
        let f = try BackendFixture()
        let ben = try f.account("ben")
        let story = try f.story(by: ben, hoursAgo: 1)
        let cid = try media(f, story)
        do {
            let lock = try BackupLock.holdForBackup(dataDirectory: f.directory)
            #expect(await f.delete(story, as: ben) == 200)
            #expect(filesExist(f, cid))
            #expect(try await f.backend.collectGarbage().filesRemoved == 0)
            #expect(filesExist(f, cid))
            withExtendedLifetime(lock) {}
        }
        #expect(try await f.backend.collectGarbage().filesRemoved == 1)
        #expect(!filesExist(f, cid))
    }
}
