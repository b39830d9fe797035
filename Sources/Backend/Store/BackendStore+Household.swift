public import ATProto
import Crypto
import Foundation
import Storage

/// The household's own administration: who owns it, and invitations for new members.
extension BackendStore {
    public enum HouseholdError: Error, Sendable, Equatable, CustomStringConvertible {
        case alreadySetUp
        case inviteInvalid
        case nameTaken
        case notOwner

        public var description: String {
            switch self {
            case .alreadySetUp: return "This household already has an owner."
            case .inviteInvalid: return "This invitation has expired or was already used."
            case .nameTaken: return "That name is already taken in this household."
            case .notOwner: return "Only the household's owner may do this."
            }
        }
    }

    /// Invitations stay usable for a week.
    public static let inviteLifetime: Double = 7 * 86400

    /// Creates the owner, but only while the household has no accounts at all; checked inside the
    /// write so two first visitors racing cannot both become owners.
    public func createOwner(handle: String, now: UTCTime) throws -> Account {
        let account = Account(did: LocalDID.mint(), handle: try Handle(handle).rawValue, createdAt: now.iso8601, role: .owner)
        try database.write { connection in
            let count = try connection.queryOne("SELECT COUNT(*) AS n FROM accounts")?.int("n") ?? 0
            guard count == 0 else { throw HouseholdError.alreadySetUp }
            try connection.execute(
                "INSERT INTO accounts (did, handle, created_at, role) VALUES (?, ?, ?, 'owner')",
                [account.did.rawValue, account.handle, account.createdAt])
        }
        return account
    }

    public func isOwner(_ did: String) throws -> Bool { try role(of: did) == .owner }

    /// The role of the account `did`; nil when there is no such account.
    public func role(of did: String) throws -> AccountRole? {
        try database.read {
            try $0.queryOne("SELECT role FROM accounts WHERE did = ?", [did]).map { AccountRole(stored: $0.string("role")) }
        }
    }

    /// A new single-use invitation that makes its user a `role`; only its hash is stored, so the link is shown once.
    public func createInvite(by owner: DID, role: AccountRole = .member, now: UTCTime) throws -> String {
        guard role != .owner else { throw HouseholdError.notOwner }
        let token = SecureRandom.token(byteCount: 24)
        try database.write {
            try $0.execute(
                "INSERT INTO invites (token_hash, created_by, created_at, expires_at, role) VALUES (?, ?, ?, ?, ?)",
                [Self.tokenHash(token), owner.rawValue, now.iso8601, now.adding(seconds: Self.inviteLifetime).iso8601, role.rawValue])
        }
        return token
    }

    public func isInviteUsable(_ token: String, now: UTCTime) throws -> Bool { try inviteRole(token, now: now) != nil }

    /// The role an open invitation gives; nil when it is unknown, used, revoked or expired.
    public func inviteRole(_ token: String, now: UTCTime) throws -> AccountRole? {
        try database.read {
            try $0.queryOne(
                "SELECT role FROM invites WHERE token_hash = ? AND used_by IS NULL AND revoked_at IS NULL AND expires_at > ?",
                [Self.tokenHash(token), now.iso8601]
            ).map { AccountRole(stored: $0.string("role")) }
        }
    }

    /// Creates a member (or guest, as the invitation says) from an invitation and uses it up, in one transaction.
    public func acceptInvite(_ token: String, handle: String, now: UTCTime) throws -> Account {
        var account = Account(did: LocalDID.mint(), handle: try Handle(handle).rawValue, createdAt: now.iso8601)
        try database.write { connection in
            guard
                let invite = try connection.queryOne(
                    "SELECT role FROM invites WHERE token_hash = ? AND used_by IS NULL AND revoked_at IS NULL AND expires_at > ?",
                    [Self.tokenHash(token), now.iso8601])
            else { throw HouseholdError.inviteInvalid }
            account.role = AccountRole(stored: invite.string("role"))
            guard account.role != .owner else { throw HouseholdError.inviteInvalid }
            guard try connection.queryOne("SELECT 1 AS ok FROM accounts WHERE handle = ?", [account.handle]) == nil else {
                throw HouseholdError.nameTaken
            }
            try connection.execute(
                "INSERT INTO accounts (did, handle, created_at, role) VALUES (?, ?, ?, ?)",
                [account.did.rawValue, account.handle, account.createdAt, account.role.rawValue])
            try connection.execute(
                "UPDATE invites SET used_by = ? WHERE token_hash = ?", [account.did.rawValue, Self.tokenHash(token)])
        }
        return account
    }
}
