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
        let account = Account(did: LocalDID.mint(), handle: try Handle(handle).rawValue, createdAt: now.iso8601)
        try database.write { connection in
            let count = try connection.queryOne("SELECT COUNT(*) AS n FROM accounts")?.int("n") ?? 0
            guard count == 0 else { throw HouseholdError.alreadySetUp }
            try connection.execute(
                "INSERT INTO accounts (did, handle, created_at, role) VALUES (?, ?, ?, 'owner')",
                [account.did.rawValue, account.handle, account.createdAt])
        }
        return account
    }

    public func isOwner(_ did: String) throws -> Bool {
        try database.read {
            try $0.queryOne("SELECT role FROM accounts WHERE did = ?", [did])?.string("role") == "owner"
        }
    }

    /// A new single-use invitation; only its hash is stored, so the link is shown once.
    public func createInvite(by owner: DID, now: UTCTime) throws -> String {
        let token = SecureRandom.token(byteCount: 24)
        try database.write {
            try $0.execute(
                "INSERT INTO invites (token_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?)",
                [Self.inviteHash(token), owner.rawValue, now.iso8601, now.adding(seconds: Self.inviteLifetime).iso8601])
        }
        return token
    }

    public func isInviteUsable(_ token: String, now: UTCTime) throws -> Bool {
        try database.read {
            try $0.queryOne(
                "SELECT 1 AS ok FROM invites WHERE token_hash = ? AND used_by IS NULL AND revoked_at IS NULL AND expires_at > ?",
                [Self.inviteHash(token), now.iso8601]) != nil
        }
    }

    /// Creates a member from an invitation and uses it up, in one transaction.
    public func acceptInvite(_ token: String, handle: String, now: UTCTime) throws -> Account {
        let account = Account(did: LocalDID.mint(), handle: try Handle(handle).rawValue, createdAt: now.iso8601)
        try database.write { connection in
            guard
                try connection.queryOne(
                    "SELECT 1 AS ok FROM invites WHERE token_hash = ? AND used_by IS NULL AND revoked_at IS NULL AND expires_at > ?",
                    [Self.inviteHash(token), now.iso8601]) != nil
            else { throw HouseholdError.inviteInvalid }
            guard try connection.queryOne("SELECT 1 AS ok FROM accounts WHERE handle = ?", [account.handle]) == nil else {
                throw HouseholdError.nameTaken
            }
            try connection.execute(
                "INSERT INTO accounts (did, handle, created_at) VALUES (?, ?, ?)",
                [account.did.rawValue, account.handle, account.createdAt])
            try connection.execute(
                "UPDATE invites SET used_by = ? WHERE token_hash = ?", [account.did.rawValue, Self.inviteHash(token)])
        }
        return account
    }

    static func inviteHash(_ token: String) -> String { Hex.encode(SHA256.hash(token)) }
}
