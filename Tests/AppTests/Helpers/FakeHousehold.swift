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
    }

    let state = Mutex(State())
    let handleDomain = "home.test"

    func needsOwner() throws -> Bool { state.withLock { $0.members.isEmpty } }

    func isSetupCode(_ code: String) throws -> Bool { code.lowercased() == Self.setupCode }

    func isOwner(_ did: String) throws -> Bool { did == Self.ownerDID }

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
            did: did, handle: handle, isOwner: isOwner, status: "active", removalDue: nil, storageBytes: 1000, quotaBytes: nil,
            recordCount: 3)
    }

    func createInvite(by did: String, now: UTCTime) throws -> String {
        let token = "invite\(state.withLock { $0.invitations.count })" + String(repeating: "x", count: 30)
        state.withLock { $0.invitations.append(token) }
        return token
    }

    func isInviteUsable(_ token: String, now: UTCTime) throws -> Bool { state.withLock { $0.invitations.contains(token) } }

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
}
