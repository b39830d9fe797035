import ATProto
import App
import AuthServer
import Backend
import Crypto
import Foundation

/// The owner's changes to members, on the backend's accounts and the authorization server's sign-ins. The front's
/// `MemberAdministration` calls these and then ends the member's browser sessions.
extension EmbeddedHousehold {
    func members() throws -> [HouseholdMember] {
        try backend.store.members.all().map {
            HouseholdMember(
                did: $0.did, handle: $0.handle, role: HouseholdRole(rawValue: $0.role.rawValue) ?? .guest, status: $0.status,
                removalDue: $0.removalDue,
                storageBytes: $0.storageBytes, quotaBytes: $0.quotaBytes, recordCount: $0.recordCount)
        }
    }

    func invitations(now: UTCTime) throws -> [HouseholdInvitation] {
        try backend.store.household.invitations().map {
            HouseholdInvitation(
                id: $0.id, createdAt: $0.createdAt, expiresAt: $0.expiresAt, state: $0.state(now: now),
                role: HouseholdRole(rawValue: $0.role.rawValue) ?? .guest)
        }
    }

    func revokeInvitation(id: String, now: UTCTime) throws -> Bool { try backend.store.household.revokeInvitation(id: id, now: now) }

    func administer(_ change: MemberChange, member: String, now: UTCTime) async throws -> MemberChangeResult {
        let store = backend.store
        let account = try administered(member) { try store.members.member(member) }.orUnknown(member)
        let name = "@" + account.handle
        switch change {
        case .disable:
            let did = try administered(member) { try store.members.setDisabled(true, member: account.did, now: now) }
            try authServer.revokeGrants(for: did)
            return result(account, "\(name) is disabled and signed out everywhere; enable them to let them back in.")
        case .enable, .restore:
            try administered(member) { try store.members.setDisabled(false, member: account.did, now: now) }
            let kept = account.removalDue != nil ? " Their removal is cancelled." : ""
            return result(account, "\(name) can sign in again.\(kept)")
        case .remove:
            let (did, due) = try administered(member) { try store.members.scheduleRemoval(of: account.did, now: now) }
            try authServer.revokeGrants(for: did)
            return result(
                account,
                "\(name) is signed out and will be deleted, with every story and photo, on \(due.iso8601.prefix(10)). "
                    + "Until then you can keep them.")
        case .quota(let bytes):
            try administered(member) { try store.members.setQuota(bytes, member: account.did) }
            let text = bytes.map { "a storage quota of \($0) bytes" } ?? "no storage quota"
            return result(account, "\(name) now has \(text).")
        case .resetPassword:
            guard let did = DID.parse(account.did) else { throw HouseholdError.unknownMember(member) }
            guard account.status == "active" else { throw HouseholdError.disabledMember(account.handle) }
            let password = SecureRandom.token(byteCount: 12)
            try await authServer.setPassword(password, for: did)
            return MemberChangeResult(
                did: account.did, handle: account.handle, message: "\(name) has a new password and is signed out everywhere.",
                password: password)
        }
    }

    func result(_ member: BackendStore.Member, _ message: String) -> MemberChangeResult {
        MemberChangeResult(did: member.did, handle: member.handle, message: message)
    }

    /// The store's refusals in the front's words.
    @discardableResult
    func administered<T>(_ member: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as BackendStore.MemberError {
            switch error.code {
            case .unknownMember: throw HouseholdError.unknownMember(member)
            case .ownerProtected: throw HouseholdError.ownerProtected
            case .invalidQuota: throw HouseholdError.invalidQuota
            }
        }
    }
}

extension Optional where Wrapped == BackendStore.Member {
    func orUnknown(_ name: String) throws -> BackendStore.Member {
        guard let self else { throw HouseholdError.unknownMember(name) }
        return self
    }
}
