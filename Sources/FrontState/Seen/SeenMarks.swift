public import ATProto
import Logging
import Synchronization

/// Seen stories per signed-in account, in the front's database, kept off the request path: a page view
/// records its mark in memory and answers at once; the marks are written in one transaction a moment later
/// (or when the server stops). Reads see their own marks at once, from a small per-account cache; when the
/// storage is shared with other fronts (`SeenStorage.isShared`) nothing is cached between requests, so a mark
/// another front wrote shows here on the next page.
///
/// Rows outlive the 24-hour window by a day, so an author's ring stays right until their last story expires;
/// `prune` drops older ones.
public final class SeenMarks: Sendable {
    /// Where the marks are written, which the owner's administration also reaches to forget a removed member's.
    public let storage: any SeenStorage

    /// How long a seen mark is kept after the story was made.
    public static let retention: Int64 = 2 * 86_400
    /// Accounts whose seen state is kept in memory; past it the cache starts over.
    static let cachedAccounts = 4096
    /// How long marks wait in memory before they are written together.
    static let flushDelay: Duration = .milliseconds(500)

    /// One story seen by one account, as it waits in memory and as `SeenStorage` writes it.
    public struct Mark: Sendable, Equatable {
        /// Whose mark it is: the signed-in account's DID.
        public var account: String
        /// The story's AT-URI.
        public var uri: String
        /// The story's author (the URI's authority), so an author's ring is read without parsing URIs.
        public var author: String
        /// When the story was made: pruning goes by it, so a mark lives as long as its story can be shown.
        public var createdAt: UTCTime
        /// When it was seen: kept with the mark, though nothing reads it yet.
        public var seenAt: UTCTime
    }

    private struct Buffer {
        var pending: [Mark] = []
        var states: [String: SeenState] = [:]
        /// Per account, how many marks this process has added: part of a signed-in page's cache key.
        var versions: [String: Int] = [:]
        var flushScheduled = false
    }

    private let buffer = Mutex(Buffer())

    /// Marks kept in `storage`; fronts sharing their sessions hand PostgreSQL's (`SharedSessions.seen`).
    public init(storage: any SeenStorage) { self.storage = storage }

    /// Marks in the `front.sqlite` that `sessions` keeps, for one front: one file, one schema, one backup.
    public convenience init(beside sessions: SessionStore) { self.init(storage: SQLiteSeenStorage(database: sessions.database)) }

    /// What `account` has seen; nothing for anonymous visitors (theirs live in their browser).
    public func state(for account: String?) throws -> SeenState {
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

    /// Marks a story seen for an account; idempotent. The write happens shortly after, off this request.
    public func mark(uri: ATURI, createdAt: UTCTime, account: String, now: UTCTime) {
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

    /// Changes whenever `account` sees a story it had not seen, so a page cached under the old value is not served
    /// with a stale ring.
    public func version(for account: String) -> Int {
        buffer.withLock { $0.versions[account] ?? 0 }
    }

    /// Writes every mark waiting in memory, in one transaction; the server calls it as it stops, so none is lost.
    public func flush() throws {
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
    public func prune(now: UTCTime) throws {
        try storage.prune(before: UTCTime(microseconds: now.microseconds - Self.retention * 1_000_000))
        buffer.withLock { $0.states.removeAll() }
    }
}
