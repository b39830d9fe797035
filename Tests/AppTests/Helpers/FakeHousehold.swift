import ATProto
import Synchronization

@testable import App

/// A household in memory: no account until the first-run form makes the owner (`owner.home.test`, whose DID is
/// the one `FrontHarness.visitor` gives that handle), then one member, `jonas`, and invitations that work once.
final class FakeHousehold: HouseholdDirectory, Sendable {
    static let setupCode = "abcd-efgh-jkmn-pqrs"
    static let ownerDID = "did:plc:" + String(repeating: "o", count: 24)
    static let jonasDID = "did:plc:" + String(repeating: "j", count: 24)

    struct State {
        var members: [HouseholdMember] = []
        var invitations: [String] = []
        var changes: [(MemberChange, String)] = []
        var screens: [String: PairedScreen] = [:]
        var pairings: [String: PairedScreen] = [:]
        var shares: [String: StoryShare] = [:]
    }

    let state = Mutex(State())
    let handleDomain = "home.test"

    func needsOwner() throws -> Bool { state.withLock { $0.members.isEmpty } }

    func isSetupCode(_ code: String) throws -> Bool { code.lowercased() == Self.setupCode }

    func role(of did: String) throws -> HouseholdRole? {
        state.withLock { state in state.members.first { $0.did == did }?.role ?? (did == Self.ownerDID ? .owner : nil) }
    }

    func createOwner(_ member: NewMember, now: UTCTime) async throws -> String {
        try state.withLock { state in
            guard state.members.isEmpty else { throw HouseholdError.alreadySetUp }
            state.members = [
                Self.member(Self.ownerDID, "owner.home.test", isOwner: true), Self.member(Self.jonasDID, "jonas.home.test", isOwner: false),
            ]
        }
        return "owner.home.test"
    }

    static func member(_ did: String, _ handle: String, isOwner: Bool) -> HouseholdMember {
        HouseholdMember(
            did: did, handle: handle, role: isOwner ? .owner : .member, status: "active", removalDue: nil, storageBytes: 1000, quotaBytes: nil,
            recordCount: 3)
    }

    func createInvite(by did: String, role: HouseholdRole, now: UTCTime) throws -> String {
        let token = "invite\(state.withLock { $0.invitations.count })" + String(repeating: "x", count: 30)
        state.withLock { $0.invitations.append(token) }
        return token
    }

    func inviteRole(_ token: String, now: UTCTime) throws -> HouseholdRole? {
        state.withLock { $0.invitations.contains(token) ? .member : nil }
    }

    func acceptInvite(_ token: String, member: NewMember, now: UTCTime) async throws -> String {
        try state.withLock { state in
            guard let index = state.invitations.firstIndex(of: token) else { throw HouseholdError.inviteInvalid }
            state.invitations.remove(at: index)
        }
        return member.name + ".home.test"
    }

    func members() throws -> [HouseholdMember] { state.withLock { $0.members } }

    func invitations(now: UTCTime) throws -> [HouseholdInvitation] {
        state.withLock {
            $0.invitations.map { HouseholdInvitation(id: "id-" + $0.prefix(7), createdAt: now.iso8601, expiresAt: now.iso8601, state: "open") }
        }
    }

    func administer(_ change: MemberChange, member: String, now: UTCTime) async throws -> MemberChangeResult {
        state.withLock { $0.changes.append((change, member)) }
        return MemberChangeResult(did: Self.jonasDID, handle: "jonas.home.test", message: "Done.")
    }

    func revokeInvitation(id: String, now: UTCTime) throws -> Bool { true }

    // Screens and share links, in memory: a token is its own key.

    func createPairing(by did: String, name: String, kioskQuery: String, memories: Bool, now: UTCTime) throws -> String {
        let token = "pair" + String(state.withLock { $0.pairings.count + $0.screens.count }) + String(repeating: "p", count: 30)
        let screen = PairedScreen(
            id: "screen-" + token.prefix(5), name: name, pairedBy: did, kioskQuery: kioskQuery, memories: memories, lastSeen: nil)
        state.withLock { $0.pairings[token] = screen }
        return token
    }

    func pendingPairing(_ token: String, now: UTCTime) throws -> PairedScreen? { state.withLock { $0.pairings[token] } }

    func completePairing(_ token: String, now: UTCTime) throws -> (credential: String, screen: PairedScreen)? {
        state.withLock { state in
            guard let screen = state.pairings.removeValue(forKey: token) else { return nil }
            let credential = "credential-" + token
            state.screens[credential] = screen
            return (credential, screen)
        }
    }

    func screen(credential: String, now: UTCTime) throws -> PairedScreen? { state.withLock { $0.screens[credential] } }

    /// Nothing is known without a look-up here: the fast path always leaves screens to the full path.
    func knownScreen(credential: String, now: UTCTime) -> PairedScreen? { nil }

    func screens() throws -> [PairedScreen] { state.withLock { Array($0.screens.values) } }

    func removeScreen(id: String) throws -> Bool {
        state.withLock { state in
            guard let key = state.screens.first(where: { $0.value.id == id })?.key else { return false }
            state.screens[key] = nil
            return true
        }
    }

    func createShare(of story: ATURI, by author: String, expiresAt: UTCTime, now: UTCTime) throws -> String {
        let token = "share" + String(state.withLock { $0.shares.count }) + String(repeating: "s", count: 30)
        let share = StoryShare(id: "id-" + token.prefix(6), story: story, author: author, createdAt: now.iso8601, expiresAt: expiresAt.iso8601)
        state.withLock { $0.shares[token] = share }
        return token
    }

    func share(token: String, now: UTCTime) throws -> StoryShare? {
        state.withLock { $0.shares[token] }.flatMap { $0.expiresAt > now.iso8601 ? $0 : nil }
    }

    func shares(of story: ATURI, now: UTCTime) throws -> [StoryShare] {
        state.withLock { Array($0.shares.values) }.filter { $0.story == story && $0.expiresAt > now.iso8601 }
    }

    func revokeShare(id: String, by author: String, now: UTCTime) throws -> Bool {
        state.withLock { state in
            guard let key = state.shares.first(where: { $0.value.id == id && $0.value.author == author })?.key else { return false }
            state.shares[key] = nil
            return true
        }
    }
}
