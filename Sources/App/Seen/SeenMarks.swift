import ATProto
import Logging
import Storage
import Synchronization

/// Seen stories per signed-in account, in the front's database, kept off the request path: a page view
/// records its mark in memory and answers at once; the marks are written in one transaction a moment later
/// (or when the server stops). Reads see their own marks at once, from a small per-account cache; when the
/// storage is shared with other fronts (`SeenStorage.isShared`) nothing is cached between requests, so a mark
/// another front wrote shows here on the next page.
///
/// Rows outlive the 24-hour window by a day, so an author's ring stays right until their last story expires;
/// `prune` drops older ones.
final class SeenMarks: Sendable {
    let storage: any SeenStorage

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

    init(storage: any SeenStorage) { self.storage = storage }

    /// Marks in `front.sqlite`, for one front.
    convenience init(database: Database) { self.init(storage: SQLiteSeenStorage(database: database)) }

    /// What `account` has seen; nothing for anonymous visitors (theirs live in their browser).
    func state(for account: String?) throws -> SeenState {
        guard let account else { return .none }
        let shared = storage.isShared
        if !shared, let cached = buffer.withLock({ $0.states[account] }) { return cached }
        var state = SeenState()
        for mark in try storage.marks(for: account) {
            state.insert(uri: mark.uri, author: mark.author, createdAt: mark.createdAt)
        }
        return buffer.withLock { buffer in
            // Marks made while the rows were being read (or not yet written) are in `pending`; they join the state.
            for mark in buffer.pending where mark.account == account {
                state.insert(uri: mark.uri, author: mark.author, createdAt: mark.createdAt)
            }
            guard !shared else { return state }
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
            try storage.insert(marks)
        } catch {
            // Kept for the next flush rather than lost.
            buffer.withLock { $0.pending = marks + $0.pending }
            throw error
        }
    }

    /// Drops marks of stories older than the retention, in the database and in memory.
    func prune(now: UTCTime) throws {
        try storage.prune(before: UTCTime(microseconds: now.microseconds - Self.retention * 1_000_000))
        buffer.withLock { $0.states.removeAll() }
    }
}
