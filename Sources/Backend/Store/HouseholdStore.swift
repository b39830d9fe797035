public import ATProto
import Crypto
import Foundation
import Storage

/// The household's own administration: who owns it, and invitations for new members.
public final class HouseholdStore: Sendable {
    let database: Database

    init(database: Database) { self.database = database }

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

    /// A new single-use invitation that makes its user a `role`; only its hash is stored, so the link is shown once.
    public func createInvite(by owner: DID, role: AccountRole = .member, now: UTCTime) throws -> String {
        guard role != .owner else { throw HouseholdError.notOwner }
        let token = SecureRandom.token(byteCount: 24)
        try database.write {
            try $0.execute(
                "INSERT INTO invites (token_hash, created_by, created_at, expires_at, role) VALUES (?, ?, ?, ?, ?)",
                [StoreSQL.tokenHash(token), owner.rawValue, now.iso8601, now.adding(seconds: Self.inviteLifetime).iso8601, role.rawValue])
        }
        return token
    }

    public func isInviteUsable(_ token: String, now: UTCTime) throws -> Bool { try inviteRole(token, now: now) != nil }

    /// The role an open invitation gives; nil when it is unknown, used, revoked or expired.
    public func inviteRole(_ token: String, now: UTCTime) throws -> AccountRole? {
        try database.read {
            try $0.queryOne(
                "SELECT role FROM invites WHERE token_hash = ? AND used_by IS NULL AND revoked_at IS NULL AND expires_at > ?",
                [StoreSQL.tokenHash(token), now.iso8601]
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
                    [StoreSQL.tokenHash(token), now.iso8601])
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
                "UPDATE invites SET used_by = ? WHERE token_hash = ?", [account.did.rawValue, StoreSQL.tokenHash(token)])
        }
        return account
    }

    // MARK: Invitations

    /// An invitation as the owner's page lists it; `id` is the stored hash (never the link's token).
    public struct Invitation: Sendable, Equatable {
        public var id: String
        public var createdAt: String
        public var expiresAt: String
        public var usedBy: String?
        public var revokedAt: String?
        /// What the invitation makes its user.
        public var role: AccountRole

        /// `open`, `used`, `revoked` or `expired` at `now`.
        public func state(now: UTCTime) -> String {
            if revokedAt != nil { return "revoked" }
            if usedBy != nil { return "used" }
            return expiresAt <= now.iso8601 ? "expired" : "open"
        }
    }

    /// Invitations, newest first (at most 100).
    public func invitations() throws -> [Invitation] {
        try database.read {
            try $0.query(
                """
                SELECT i.token_hash, i.created_at, i.expires_at, a.handle AS used_by, i.revoked_at, i.role
                FROM invites i LEFT JOIN accounts a ON a.did = i.used_by ORDER BY i.created_at DESC LIMIT 100
                """)
        }.map {
            Invitation(
                id: $0.string("token_hash") ?? "", createdAt: $0.string("created_at") ?? "", expiresAt: $0.string("expires_at") ?? "",
                usedBy: $0.string("used_by"), revokedAt: $0.string("revoked_at"), role: AccountRole(stored: $0.string("role")))
        }
    }

    /// Takes back an unused invitation; false when there is no such open invitation.
    @discardableResult
    public func revokeInvitation(id: String, now: UTCTime) throws -> Bool {
        try database.write { connection in
            try connection.execute(
                "UPDATE invites SET revoked_at = ? WHERE token_hash = ? AND used_by IS NULL AND revoked_at IS NULL", [now.iso8601, id])
            return connection.changes == 1
        }
    }
}
