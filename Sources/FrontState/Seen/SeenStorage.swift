public import ATProto
import Storage

/// Where seen marks are kept: `front.sqlite` for one front, PostgreSQL for fronts that share their sessions.
public protocol SeenStorage: Sendable {
    /// Whether another process may write marks too, so that what this one remembers goes stale: `SeenMarks` then
    /// keeps no per-account state between requests.
    var isShared: Bool { get }
    /// Every mark kept for `account`: (uri, author, story created at).
    func marks(for account: String) throws -> [(uri: String, author: String, createdAt: UTCTime)]
    /// Writes marks in one transaction; a mark already kept is left as it is.
    func insert(_ marks: [SeenMarks.Mark]) throws
    /// Drops marks of stories created before `cutoff`.
    func prune(before cutoff: UTCTime) throws

    /// Deletes every mark of `account` (a member the household removed).
    func forget(account: String) throws
}

/// Seen marks in `front.sqlite`'s `seen_stories` (its schema is `SessionStore.migrations`).
struct SQLiteSeenStorage: SeenStorage {
    let database: Database
    var isShared: Bool { false }

    func marks(for account: String) throws -> [(uri: String, author: String, createdAt: UTCTime)] {
        let rows = try database.read {
            try $0.query("SELECT uri, author, created_at FROM seen_stories WHERE account = ?", [account])
        }
        return rows.compactMap { row in
            guard let uri = row.string("uri"), let author = row.string("author"), let micros = row.int("created_at") else { return nil }
            return (uri, author, UTCTime(microseconds: Int64(micros)))
        }
    }

    func insert(_ marks: [SeenMarks.Mark]) throws {
        try database.write { connection in
            for mark in marks {
                try connection.execute(
                    """
                    INSERT OR IGNORE INTO seen_stories (account, uri, author, created_at, seen_at)
                    VALUES (?, ?, ?, ?, ?)
                    """, [mark.account, mark.uri, mark.author, mark.createdAt.microseconds, mark.seenAt.microseconds])
            }
        }
    }

    func prune(before cutoff: UTCTime) throws {
        try database.write { try $0.execute("DELETE FROM seen_stories WHERE created_at < ?", [cutoff.microseconds]) }
    }

    func forget(account: String) throws {
        try database.write { try $0.execute("DELETE FROM seen_stories WHERE account = ?", [account]) }
    }
}
