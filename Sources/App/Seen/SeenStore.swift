import ATProto
import Storage

/// Seen stories per signed-in account, in the front's database. Rows outlive the 24-hour window by a
/// day so that an author's ring stays right until their last story expires, then they are dropped.
struct SeenStore: Sendable {
    let database: Database

    /// How long a seen mark is kept after the story was made.
    static let retention: Int64 = 2 * 86_400

    func state(for account: String) throws -> SeenState {
        let rows = try database.read {
            try $0.query("SELECT uri, author, created_at FROM seen_stories WHERE account = ?", [account])
        }
        var state = SeenState()
        for row in rows {
            guard let uri = row.string("uri"), let author = row.string("author"), let micros = row.int("created_at")
            else { continue }
            state.insert(uri: uri, author: author, createdAt: UTCTime(microseconds: Int64(micros)))
        }
        return state
    }

    /// Marks a story seen for an account; idempotent.
    func markSeen(account: String, uri: ATURI, createdAt: UTCTime, now: UTCTime) throws {
        try database.write {
            try $0.execute(
                """
                INSERT OR IGNORE INTO seen_stories (account, uri, author, created_at, seen_at)
                VALUES (?, ?, ?, ?, ?)
                """,
                [account, uri.description, uri.authority, createdAt.microseconds, now.microseconds])
            try $0.execute(
                "DELETE FROM seen_stories WHERE account = ? AND created_at < ?",
                [account, now.microseconds - Self.retention * 1_000_000])
        }
    }
}
