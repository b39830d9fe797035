import ATProto
import Backend
import Foundation
import TestSupport
import Testing

/// Paired screens, share links and guest invitations in the backend's store: what each token opens, for how long,
/// and that none of them can be read back out of the database.
struct HouseholdPassesStoreTests {
    /// The database's bytes as text, to look for a secret in.
    func databaseText(_ f: BackendFixture) throws -> String {
        try f.backend.store.checkpoint()
        return try String(contentsOfFile: f.directory + "/backend.sqlite", encoding: .isoLatin1)
    }

    @Test("a pairing link works once and for ten minutes; its credential opens the screen until it is removed or its member disabled")
    func pairingLifecycle() throws {
        let f = try BackendFixture()
        let owner = try f.backend.store.household.createOwner(handle: "ana.home.test", now: f.clock.now)
        let store = f.backend.store
        let late = try store.screens.createPairing(by: owner.did, name: "Hall", kioskQuery: "", memories: false, now: f.clock.now)
        let token = try store.screens.createPairing(by: owner.did, name: "Kitchen", kioskQuery: "memories=1", memories: true, now: f.clock.now)
        #expect(try store.screens.pendingPairing(token, now: f.clock.now)?.name == "Kitchen")
        f.clock.advance(seconds: 599)
        let (credential, screen) = try #require(try store.screens.completePairing(token, now: f.clock.now))
        #expect(screen.memories && screen.kioskQuery == "memories=1" && screen.pairedBy == owner.did)
        #expect(try store.screens.completePairing(token, now: f.clock.now) == nil, "a pairing link works once")
        f.clock.advance(seconds: 2)
        #expect(try store.screens.completePairing(late, now: f.clock.now) == nil, "and not after ten minutes")
        #expect(try store.screens.screen(credential: credential, now: f.clock.now)?.id == screen.id)
        #expect(try store.screens.screen(credential: credential + "x", now: f.clock.now) == nil)
        let text = try databaseText(f)
        #expect(!text.contains(credential) && !text.contains(token), "only hashes are stored")

        // A screen of a member who may no longer act shows nothing; removed, it is gone.
        let ben = try f.account("ben")
        let bens = try store.screens.createPairing(by: ben, name: "Den", kioskQuery: "", memories: false, now: f.clock.now)
        let (bensCredential, bensScreen) = try #require(try store.screens.completePairing(bens, now: f.clock.now))
        try store.members.setDisabled(true, member: "ben.home.test", now: f.clock.now)
        #expect(try store.screens.screen(credential: bensCredential, now: f.clock.now) == nil)
        #expect(try store.screens.removeScreen(id: bensScreen.id))
        #expect(try !store.screens.removeScreen(id: bensScreen.id))
        #expect(try store.screens.all().map(\.name) == ["Kitchen"])
        #expect(try store.screens.removeScreen(id: screen.id))
        #expect(try store.screens.screen(credential: credential, now: f.clock.now) == nil)
    }

    @Test("a screen's last-seen time is written at most once a minute")
    func sightings() throws {
        let f = try BackendFixture()
        let owner = try f.backend.store.household.createOwner(handle: "ana.home.test", now: f.clock.now)
        let store = f.backend.store
        let token = try store.screens.createPairing(by: owner.did, name: "Kitchen", kioskQuery: "", memories: false, now: f.clock.now)
        let (credential, paired) = try #require(try store.screens.completePairing(token, now: f.clock.now))
        f.clock.advance(seconds: 30)
        #expect(try store.screens.screen(credential: credential, now: f.clock.now)?.lastSeen == paired.lastSeen)
        f.clock.advance(seconds: 31)
        #expect(try store.screens.screen(credential: credential, now: f.clock.now)?.lastSeen == f.clock.now.iso8601)
    }

    @Test("a share link opens its story until it expires or its author revokes it; only its author revokes; its token is not stored")
    func shareLifecycle() throws {
        let f = try BackendFixture()
        let store = f.backend.store
        _ = try store.household.createOwner(handle: "ana.home.test", now: f.clock.now)
        let ben = try f.account("ben")
        let story = try f.story(by: ben, hoursAgo: 1)
        let token = try store.shares.createShare(of: story, by: ben, expiresAt: f.clock.now.adding(seconds: 3600), now: f.clock.now)
        let other = try store.shares.createShare(of: story, by: ben, expiresAt: f.clock.now.adding(seconds: 3600), now: f.clock.now)
        #expect(try store.shares.share(token: token, now: f.clock.now)?.story == story)
        #expect(try store.shares.shares(of: story, now: f.clock.now).count == 2)
        #expect(!(try databaseText(f)).contains(token))
        let id = try #require(try store.shares.share(token: token, now: f.clock.now)?.id)
        let ana = try #require(try store.accounts.account("ana.home.test")).did
        #expect(try !store.shares.revokeShare(id: id, by: ana, now: f.clock.now), "only the author revokes")
        #expect(try store.shares.revokeShare(id: id, by: ben, now: f.clock.now))
        #expect(try store.shares.share(token: token, now: f.clock.now) == nil)
        f.clock.advance(seconds: 3601)
        #expect(try store.shares.share(token: other, now: f.clock.now) == nil, "expired with its story")
        #expect(try store.shares.shares(of: story, now: f.clock.now).isEmpty)
    }

    @Test("an invitation names the role it gives; a guest's account is made a guest, and the owner's role cannot be given")
    func guestInvitations() throws {
        let f = try BackendFixture()
        let store = f.backend.store
        let owner = try store.household.createOwner(handle: "ana.home.test", now: f.clock.now)
        let token = try store.household.createInvite(by: owner.did, role: .guest, now: f.clock.now)
        #expect(try store.household.inviteRole(token, now: f.clock.now) == .guest)
        let guest = try store.household.acceptInvite(token, handle: "oma.home.test", now: f.clock.now)
        #expect(guest.role == .guest)
        #expect(try store.accounts.role(of: guest.did.rawValue) == .guest)
        #expect(try store.household.inviteRole(token, now: f.clock.now) == nil)
        #expect(throws: BackendStore.HouseholdError.self) { try store.household.createInvite(by: owner.did, role: .owner, now: f.clock.now) }
        #expect(try store.household.invitations().first?.role == .guest)
    }
}
