public import ATProto
import Foundation
import Storage

/// The owner's administration of members: who they are and what they store, disabling, removal after a grace
/// period (with an undo until then) and per-member quotas.
public final class MemberStore: Sendable {
    let database: Database
    /// Resolves a member named by handle.
    let accounts: AccountStore

    init(database: Database, accounts: AccountStore) {
        self.database = database
        self.accounts = accounts
    }

    /// How long a removal waits before the member's records and blobs are deleted; until then it can be undone.
    public static let removalGrace: Double = 7 * 86400

    /// One account as the owner's page and `users list` show it.
    public struct Member: Sendable, Equatable {
        public var did: String
        public var handle: String
        public var role: AccountRole
        public var createdAt: String
        public var disabledAt: String?
        /// When the account, its records and its blobs are deleted; nil unless a removal is pending.
        public var removalDue: String?
        /// The most blob bytes it may own; nil for no limit.
        public var quotaBytes: Int?
        /// Bytes of the blobs it owns (each blob counted once per owner, as its uploads are).
        public var storageBytes: Int
        public var recordCount: Int

        public var isOwner: Bool { role == .owner }
        /// `active`, `disabled` or `removal pending`.
        public var status: String { removalDue != nil ? "removal pending" : disabledAt != nil ? "disabled" : "active" }
    }

    /// Why an administrative change was refused.
    public struct MemberError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Code: Sendable, Equatable { case unknownMember, ownerProtected, invalidQuota }
        public let code: Code
        public let description: String

        static func unknown(_ name: String) -> MemberError {
            MemberError(code: .unknownMember, description: "There is no member \(name) in this household.")
        }
        public static let ownerProtected = MemberError(
            code: .ownerProtected, description: "The household's owner cannot be disabled or removed.")
    }

    /// Every account, the owner first, then by handle.
    public func all() throws -> [Member] {
        try database.read { connection in
            try connection.query(
                """
                SELECT a.did, a.handle, a.role, a.created_at, a.disabled_at, a.removal_due, a.quota_bytes,
                    (SELECT COALESCE(SUM(size), 0) FROM blobs b WHERE b.did = a.did) AS storage,
                    (SELECT COUNT(*) FROM records r WHERE r.did = a.did) AS records
                FROM accounts a ORDER BY a.role = 'owner' DESC, a.handle
                """
            ).map(Self.member)
        }
    }

    /// One member by DID or handle.
    public func member(_ actor: String) throws -> Member? {
        guard let account = try accounts.account(actor) else { return nil }
        return try all().first { $0.did == account.did.rawValue }
    }

    static func member(_ row: Row) -> Member {
        Member(
            did: row.string("did") ?? "", handle: row.string("handle") ?? "", role: AccountRole(stored: row.string("role")),
            createdAt: row.string("created_at") ?? "", disabledAt: row.string("disabled_at"), removalDue: row.string("removal_due"),
            quotaBytes: row.int("quota_bytes"), storageBytes: row.int("storage") ?? 0, recordCount: row.int("records") ?? 0)
    }

    /// The account of `actor`, refusing the owner where the owner must stay.
    private func changeable(_ actor: String, _ connection: Connection) throws -> String {
        guard
            let row = try connection.queryOne(
                "SELECT did, role FROM accounts WHERE did = ? OR handle = ?", [actor, actor.lowercased()]),
            let did = row.string("did")
        else { throw MemberError.unknown(actor) }
        guard row.string("role") != "owner" else { throw MemberError.ownerProtected }
        return did
    }

    /// Disables (or enables again) a member: a disabled one cannot sign in, refresh or act. Enabling also undoes a
    /// pending removal. Returns the member's DID.
    @discardableResult
    public func setDisabled(_ disabled: Bool, member actor: String, now: UTCTime) throws -> DID {
        let did = try database.write { connection in
            let did = try changeable(actor, connection)
            if disabled {
                try connection.execute("UPDATE accounts SET disabled_at = COALESCE(disabled_at, ?) WHERE did = ?", [now.iso8601, did])
            } else {
                try connection.execute("UPDATE accounts SET disabled_at = NULL, removal_due = NULL WHERE did = ?", [did])
            }
            return did
        }
        return try DID.parse(did).orThrow(MemberError.unknown(actor))
    }

    /// Schedules a member's removal after ``removalGrace``: the account is disabled at once, and its records and blobs
    /// are deleted when the time comes unless ``setDisabled(_:member:now:)`` enables it first.
    /// - Returns: the DID and when the removal happens.
    public func scheduleRemoval(of actor: String, now: UTCTime) throws -> (did: DID, due: UTCTime) {
        let due = now.adding(seconds: Self.removalGrace)
        let did = try database.write { connection in
            let did = try changeable(actor, connection)
            try connection.execute(
                "UPDATE accounts SET disabled_at = COALESCE(disabled_at, ?), removal_due = COALESCE(removal_due, ?) WHERE did = ?",
                [now.iso8601, due.iso8601, did])
            return did
        }
        let stored = try member(did)?.removalDue.flatMap { UTCTime(iso8601: $0) } ?? due
        return (try DID.parse(did).orThrow(MemberError.unknown(actor)), stored)
    }

    /// Members whose removal is due at `now`.
    public func dueRemovals(now: UTCTime) throws -> [DID] {
        try database.read {
            try $0.query("SELECT did FROM accounts WHERE removal_due IS NOT NULL AND removal_due <= ?", [now.iso8601])
        }.compactMap { $0.string("did").flatMap(DID.parse) }
    }

    /// Deletes an account whose removal was scheduled, with everything it owns in this database: records (and their
    /// indexes), blob rows, seen marks, mutes, preferences, the reports it made, the invitations it holds, the screens
    /// it paired and its share links.
    /// Other members' favourites and comments on its stories stay, as they do when a story is deleted.
    /// - Returns: the CIDs no account owns any more, whose files may go; nil when no removal was pending.
    func purgeScheduled(_ did: DID) throws -> [String]? {
        try database.write { connection -> [String]? in
            guard
                try connection.queryOne("SELECT 1 AS x FROM accounts WHERE did = ? AND removal_due IS NOT NULL", [did.rawValue]) != nil
            else { return nil }
            let owned = Set(try connection.query("SELECT cid FROM blobs WHERE did = ?", [did.rawValue]).compactMap { $0.string("cid") })
            try connection.execute(
                "DELETE FROM story_views WHERE subject IN (SELECT uri FROM records WHERE did = ?)", [did.rawValue])
            for sql in [
                "DELETE FROM blob_refs WHERE did = ?", "DELETE FROM records WHERE did = ?", "DELETE FROM blobs WHERE did = ?",
                "DELETE FROM story_views WHERE did = ?", "DELETE FROM mutes WHERE did = ? OR subject = ?",
                "DELETE FROM preferences WHERE did = ?", "DELETE FROM reports WHERE reported_by = ?",
                "UPDATE invites SET used_by = NULL WHERE used_by = ?", "DELETE FROM screens WHERE paired_by = ?",
                "DELETE FROM shares WHERE author = ?", "DELETE FROM accounts WHERE did = ?",
            ] {
                let placeholders = sql.filter { $0 == "?" }.count
                try connection.execute(sql, Array(repeating: did.rawValue, count: placeholders))
            }
            var unowned: [String] = []
            for cid in owned.sorted() where try connection.queryOne("SELECT 1 AS x FROM blobs WHERE cid = ?", [cid]) == nil {
                unowned.append(cid)
            }
            return unowned
        }
    }

    /// Sets a member's storage quota in bytes (nil removes it). The owner may have one too.
    public func setQuota(_ bytes: Int?, member actor: String) throws {
        if let bytes, bytes < 0 { throw MemberError(code: .invalidQuota, description: "A quota cannot be negative.") }
        try database.write { connection in
            try connection.execute(
                "UPDATE accounts SET quota_bytes = ? WHERE did = ? OR handle = ?", [bytes, actor, actor.lowercased()])
            guard connection.changes == 1 else { throw MemberError.unknown(actor) }
        }
    }

    /// A member's blob bytes and quota (nil: none).
    public func storage(of did: DID) throws -> (used: Int, quota: Int?) {
        try database.read { connection in
            let row = try connection.queryOne(
                """
                SELECT a.quota_bytes, (SELECT COALESCE(SUM(size), 0) FROM blobs b WHERE b.did = a.did) AS used
                FROM accounts a WHERE a.did = ?
                """, [did.rawValue])
            return (row?.int("used") ?? 0, row?.int("quota_bytes"))
        }
    }
}
