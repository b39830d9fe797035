public import ATProto
import Foundation
import Lexicon
import Storage

/// Reports (`dev.hatk.createReport`) and what the household owner does with them.
public final class ModerationStore: Sendable {
    let database: Database
    /// Whether the one acting owns the household, and the DID behind a URI named by handle.
    let accounts: AccountStore

    init(database: Database, accounts: AccountStore) {
        self.database = database
        self.accounts = accounts
    }

    /// Unresolved reports one member may have waiting; more are refused until the owner reviews them.
    public static let maxOpenReportsPerReporter = 100
    /// `reason` is at most this many characters (hatk's limit).
    public static let maxReportReason = 2000

    /// A stored report.
    public struct Report: Sendable, Equatable {
        public var id: Int
        /// The reported record (`at://did/collection/rkey`), or `at://did` for an account.
        public var subjectURI: String
        public var subjectDID: String
        public var subjectCID: String?
        public var label: String
        public var reason: String?
        public var reportedBy: String
        public var createdAt: String
        public var resolvedAt: String?
        public var resolvedBy: String?
        /// `hidden` when the owner hid the subject, `dismissed` when they let it stand.
        public var resolution: String?
    }

    /// Why a report was not stored.
    public struct ReportError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Stores a report; returns its id.
    public func createReport(
        subjectURI: String, subjectDID: String, subjectCID: String?, label: String, reason: String?, by reporter: DID, now: UTCTime
    ) throws -> Int {
        try database.write { connection in
            let open =
                try connection.queryOne(
                    "SELECT COUNT(*) AS n FROM reports WHERE reported_by = ? AND resolved_at IS NULL", [reporter.rawValue])?.int("n") ?? 0
            guard open < Self.maxOpenReportsPerReporter else {
                throw ReportError(description: "You have \(open) reports waiting for review; please wait for the household's owner")
            }
            try connection.execute(
                """
                INSERT INTO reports (subject_uri, subject_did, subject_cid, label, reason, reported_by, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [subjectURI, subjectDID, subjectCID, label, reason, reporter.rawValue, now.iso8601])
            return try connection.queryOne("SELECT last_insert_rowid() AS id")?.int("id") ?? 0
        }
    }

    /// Reports for the owner's review, newest first: only unresolved ones unless `includeResolved`.
    public func reports(includeResolved: Bool = false, limit: Int = 100, by owner: DID) throws -> [Report] {
        try requireOwner(owner)
        return try database.read {
            try $0.query(
                """
                SELECT * FROM reports \(includeResolved ? "" : "WHERE resolved_at IS NULL")
                ORDER BY created_at DESC, id DESC LIMIT ?
                """, [max(1, min(limit, 1000))])
        }.map { row in
            Report(
                id: row.int("id") ?? 0, subjectURI: row.string("subject_uri") ?? "", subjectDID: row.string("subject_did") ?? "",
                subjectCID: row.string("subject_cid"), label: row.string("label") ?? "", reason: row.string("reason"),
                reportedBy: row.string("reported_by") ?? "", createdAt: row.string("created_at") ?? "",
                resolvedAt: row.string("resolved_at"), resolvedBy: row.string("resolved_by"), resolution: row.string("resolution"))
        }
    }

    /// Hides a record for everyone: no query serves it from now on (the strip stops counting a hidden story, its
    /// image stops being served), and the open reports about it are resolved as `hidden`. Only the owner may.
    public func hideRecord(_ uri: ATURI, by owner: DID, now: UTCTime) throws {
        try requireOwner(owner)
        let canonical = try accounts.canonical(uri) ?? uri
        try database.write { connection in
            try connection.execute(
                "INSERT OR IGNORE INTO hidden_records (uri, hidden_by, created_at) VALUES (?, ?, ?)",
                [canonical.description, owner.rawValue, now.iso8601])
            try connection.execute(
                """
                UPDATE reports SET resolved_at = ?, resolved_by = ?, resolution = 'hidden'
                WHERE subject_uri = ? AND resolved_at IS NULL
                """, [now.iso8601, owner.rawValue, canonical.description])
        }
    }

    /// Serves a hidden record again. Only the owner may.
    public func unhideRecord(_ uri: ATURI, by owner: DID) throws {
        try requireOwner(owner)
        let canonical = try accounts.canonical(uri) ?? uri
        try database.write { try $0.execute("DELETE FROM hidden_records WHERE uri = ?", [canonical.description]) }
    }

    /// The records the owner hid, newest first.
    public func hiddenRecords(by owner: DID) throws -> [(uri: String, hiddenAt: String)] {
        try requireOwner(owner)
        return try database.read {
            try $0.query("SELECT uri, created_at FROM hidden_records ORDER BY created_at DESC LIMIT 1000")
        }.map { ($0.string("uri") ?? "", $0.string("created_at") ?? "") }
    }

    /// Closes a report without hiding anything. Only the owner may.
    public func dismissReport(_ id: Int, by owner: DID, now: UTCTime) throws {
        try requireOwner(owner)
        try database.write {
            try $0.execute(
                "UPDATE reports SET resolved_at = ?, resolved_by = ?, resolution = 'dismissed' WHERE id = ? AND resolved_at IS NULL",
                [now.iso8601, owner.rawValue, id])
        }
    }

    func requireOwner(_ did: DID) throws {
        guard try accounts.isOwner(did.rawValue) else { throw HouseholdStore.HouseholdError.notOwner }
    }
}
