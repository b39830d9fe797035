public import ATProto
import Foundation
import FrontState
import Logging
import Units

/// The owner's changes to members, the one path both the `/admin` page and `grain-stories users ...` take: the
/// household directory changes the account (and its sign-ins), then the front ends the member's browser sessions,
/// and the change is logged with who made it (never a password).
public struct MemberAdministration: Sendable {
    let directory: any HouseholdDirectory
    let sessions: any SessionStoring
    let seen: any SeenStorage

    /// Every member with their storage use, the owner first.
    public func members() throws -> [HouseholdMember] { try directory.members() }

    /// Invitations, newest first.
    public func invitations(now: UTCTime) throws -> [HouseholdInvitation] { try directory.invitations(now: now) }

    /// Applies `change` to `member` (a handle, its short name or a DID).
    /// - Parameter actor: who asked, for the log: the owner's handle or "the command line".
    public func apply(_ change: MemberChange, to member: String, by actor: String, now: UTCTime) async throws -> MemberChangeResult {
        let name = directory.qualified(member)
        let result = try await directory.administer(change, member: name, now: now)
        if change.endsSessions { try sessions.deleteAll(of: result.did) }
        log.info("\(actor) \(change.verb) \(result.handle)", fields: ["admin": "member"])
        return result
    }

    /// Takes back an open invitation; false when it was no longer open.
    public func revokeInvitation(id: String, by actor: String, now: UTCTime) throws -> Bool {
        let revoked = try directory.revokeInvitation(id: id, now: now)
        if revoked { log.info("\(actor) revoked an invitation", fields: ["admin": "invitation"]) }
        return revoked
    }

    /// The paired screens, most recently seen first.
    public func screens() throws -> [PairedScreen] { try directory.screens() }

    /// Unpairs a screen: its next request is a stranger's. False when there was none.
    public func removeScreen(id: String, by actor: String) throws -> Bool {
        let removed = try directory.removeScreen(id: id)
        if removed { log.info("\(actor) removed a paired screen", fields: ["admin": "screen"]) }
        return removed
    }

    /// Removes what the front keeps of members the household deleted (sessions and seen marks).
    public func forget(_ did: String) throws {
        try sessions.deleteAll(of: did)
        try seen.forget(account: did)
    }
}

extension HouseholdDirectory {
    /// `maya` is `maya.<domain>`; a DID or a full handle stays as it is.
    func qualified(_ member: String) -> String {
        member.hasPrefix("did:") || member.contains(".") ? member : member.lowercased() + "." + handleDomain
    }
}

extension MemberAdministration {
    /// Whether `did` is the household's owner (who alone may administer).
    public func isOwner(_ did: String) throws -> Bool { try directory.isOwner(did) }
}

extension MemberChange {
    /// A quota as people write it (`500M`, `2G`, a number of bytes; see `ByteCount.parse`); `none` or nothing for
    /// no quota.
    public static func parseQuota(_ text: String) throws(HouseholdError) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.lowercased() == "none" { return nil }
        guard let bytes = ByteCount.parse(trimmed) else { throw HouseholdError.invalidQuota }
        return bytes
    }
}
