import ATProto
import Logging
import Storage
import Synchronization

/// Seen stories per signed-in account, in the front's database, kept off the request path: a page view
/// records its mark in memory and answers at once; the marks are written in one transaction a moment later
/// (or when the server stops). Reads see their own marks at once, from a small per-account cache.
///
/// Rows outlive the 24-hour window by a day, so an author's ring stays right until their last story expires;
/// `prune` drops older ones.
final class SeenMarks: Sendable {
    let database: Database

    /// How long a seen mark is kept after the story was made.
    static let retention: Int64 = 2 * 86_400
    /// Accounts whose seen state is kept in memory; past it the cache starts over.
    static let cachedAccounts = 4096
    /// How long marks wait in memory before they are written together.
    static let flushDelay: Duration = .milliseconds(500)

    struct Mark: Sendable, Equatable {
        var account: String
        var uri: String
        var author: String
        var createdAt: UTCTime
        var seenAt: UTCTime
    }

    private struct Buffer {
        var pending: [Mark] = []
        var states: [String: SeenState] = [:]
        /// Per account, how many marks this process has added: part of a signed-in page's cache key.
        var versions: [String: Int] = [:]
        var flushScheduled = false
    }

    private let buffer = Mutex(Buffer())

    init(database: Database) { self.database = database }

    /// What `account` has seen; nothing for anonymous visitors (theirs live in their browser).
    func state(for account: String?) throws -> SeenState {
        guard let account else { return .none }
        if let cached = buffer.withLock({ $0.states[account] }) { return cached }
        let rows = try database.read {
            try $0.query("SELECT uri, author, created_at FROM seen_stories WHERE account = ?", [account])
        }
        var state = SeenState()
        for row in rows {
            guard let uri = row.string("uri"), let author = row.string("author"), let micros = row.int("created_at")
            else { continue }
            state.insert(uri: uri, author: author, createdAt: UTCTime(microseconds: Int64(micros)))
        }
        return buffer.withLock { buffer in
            // Marks made while the rows were being read are in `pending`; they join the loaded state.
            for mark in buffer.pending where mark.account == account {
                state.insert(uri: mark.uri, author: mark.author, createdAt: mark.createdAt)
            }
            if buffer.states.count >= Self.cachedAccounts { buffer.states.removeAll() }
            buffer.states[account] = state
            return state
        }
    }

    /// Marks a served story as seen.
    func mark(_ item: StoryItem, account: String, now: UTCTime) {
        guard let uri = try? ATURI(item.uri), let created = UTCTime(iso8601: item.createdAt) else { return }
        mark(uri: uri, createdAt: created, account: account, now: now)
    }

    /// Marks a story seen for an account; idempotent. The write happens shortly after, off this request.
    func mark(uri: ATURI, createdAt: UTCTime, account: String, now: UTCTime) {
        let mark = Mark(account: account, uri: uri.description, author: uri.authority, createdAt: createdAt, seenAt: now)
        let schedule = buffer.withLock { buffer -> Bool in
            if buffer.states[account]?.uris.contains(mark.uri) == true { return false }
            buffer.pending.append(mark)
            buffer.states[account]?.insert(uri: mark.uri, author: mark.author, createdAt: createdAt)
            buffer.versions[account, default: 0] += 1
            defer { buffer.flushScheduled = true }
            return !buffer.flushScheduled
        }
        guard schedule else { return }
        Task {
            try? await Task.sleep(for: Self.flushDelay)
            do { try self.flush() } catch { log.error("seen marks could not be written: \(error)") }
        }
    }

    /// Changes whenever `account` sees a story it had not seen.
    func version(for account: String) -> Int {
        buffer.withLock { $0.versions[account] ?? 0 }
    }

    /// Writes every mark waiting in memory, in one transaction.
    func flush() throws {
        let marks = buffer.withLock { buffer -> [Mark] in
            defer {
                buffer.pending = []
                buffer.flushScheduled = false
            }
            return buffer.pending
        }
        guard !marks.isEmpty else { return }
        do {
            try database.write { connection in
                for mark in marks {
                    try connection.execute(
                        """
                        INSERT OR IGNORE INTO seen_stories (account, uri, author, created_at, seen_at)
                        VALUES (?, ?, ?, ?, ?)
                        """, [mark.account, mark.uri, mark.author, mark.createdAt.microseconds, mark.seenAt.microseconds])
                }
            }
        } catch {
            // Kept for the next flush rather than lost.
            buffer.withLock { $0.pending = marks + $0.pending }
            throw error
        }
    }

    /// Drops marks of stories older than the retention, in the database and in memory.
    func prune(now: UTCTime) throws {
        let cutoff = now.microseconds - Self.retention * 1_000_000
        try database.write { try $0.execute("DELETE FROM seen_stories WHERE created_at < ?", [cutoff]) }
        buffer.withLock { $0.states.removeAll() }
    }
}
