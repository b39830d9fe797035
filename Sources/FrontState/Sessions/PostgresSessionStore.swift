import ATProto
import Foundation
import HatkClient
import PostgresStorage
import Storage

/// Browser sessions and sign-ins in progress in PostgreSQL, shared by every front. Nothing is cached: a logout or
/// a refresh on one front holds on every other at once. The refresh lock is an advisory lock named by the session,
/// so two fronts refreshing the same session take turns and the second finds the first one's tokens.
struct PostgresSessionStore: SessionStoring {
    let database: PostgresDatabase
    let sealing: SessionSealing

    func create(_ session: BrowserSession, now: Int64) throws {
        let tokens = try sealing.sealTokens(session.tokens, idHash: session.idHash)
        let dpop = try sealing.sealKey(session.dpopKey, idHash: session.idHash)
        try database.execute(
            """
            INSERT INTO grain_sessions (id_hash, did, handle, sealed_tokens, sealed_key, origin, created_at, expires_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """, [session.idHash, session.did, session.handle, tokens, dpop, session.origin, now, now + BrowserSession.lifetime])
    }

    @discardableResult
    func updateTokens(_ tokens: TokenSet, idHash: String) throws -> Bool {
        let sealed = try sealing.sealTokens(tokens, idHash: idHash)
        return try database.execute("UPDATE grain_sessions SET sealed_tokens = $1 WHERE id_hash = $2", [sealed, idHash]) > 0
    }

    func session(idHash: String, now: Int64) throws -> BrowserSession? {
        let row = try database.query(
            "SELECT did, handle, sealed_tokens, sealed_key, origin FROM grain_sessions WHERE id_hash = $1 AND expires_at > $2",
            [idHash, now]
        ).first
        return row.flatMap { sealing.session(idHash: idHash, row: $0) }
    }

    /// Always nil: another front may have ended or refreshed the session a moment ago, so no copy is kept. Signed-in
    /// requests take the full path, and a sign-out on any front holds on this one from its next request.
    func cachedSession(id sessionID: String, now: Int64) -> BrowserSession? { nil }

    func delete(idHash: String) throws {
        try database.execute("DELETE FROM grain_sessions WHERE id_hash = $1", [idHash])
    }

    func count() throws -> Int {
        try database.query("SELECT COUNT(*) AS n FROM grain_sessions", []).first?.int("n") ?? 0
    }

    func deleteAll(of did: String) throws {
        try database.execute("DELETE FROM grain_sessions WHERE did = $1", [did])
    }

    func prune(now: Int64) throws {
        try database.execute("DELETE FROM grain_sessions WHERE expires_at <= $1", [now])
        try database.execute("DELETE FROM grain_pending_sign_ins WHERE created_at < $1", [now - BrowserSession.pendingLifetime])
        // A window is over a minute after it started; an hour is far past any of them.
        try database.execute("DELETE FROM grain_rate_windows WHERE window_start < $1", [now - 3600])
    }

    func savePending(_ pending: PendingAuthorization, next: String, browser: String) throws {
        let sealed = try sealing.sealPending(pending)
        try database.execute(
            "INSERT INTO grain_pending_sign_ins (state, sealed, next, browser_hash, created_at) VALUES ($1, $2, $3, $4, $5)",
            [pending.state, sealed, next, BrowserSession.hash(browser), pending.createdAt])
    }

    /// `DELETE ... RETURNING` takes the row in one statement: two fronts handed the same callback cannot both finish it.
    func takePending(state: String, browser: String?) throws -> Result<(PendingAuthorization, next: String), PendingRefusal> {
        let row = try database.query(
            "DELETE FROM grain_pending_sign_ins WHERE state = $1 RETURNING sealed, next, browser_hash", [state]
        ).first
        return sealing.pending(state: state, row: row, browser: browser)
    }

    func whileRefreshing<T: Sendable>(idHash: String, _ body: () async throws -> T) async throws -> T {
        try await database.withAdvisoryLock(Self.lockKey(idHash), body)
    }

    /// The advisory lock of a session: the first 64 bits of its id hash (SHA-256 hex), so no two sessions share one
    /// in practice, and nothing about the session can be learnt from `pg_locks`.
    static func lockKey(_ idHash: String) -> Int64 {
        Int64(bitPattern: UInt64(idHash.prefix(16), radix: 16) ?? 0)
    }
}

/// Seen marks in PostgreSQL: every front writes here and reads here, so none keeps an account's marks between
/// requests.
struct PostgresSeenStorage: SeenStorage {
    let database: PostgresDatabase
    var isShared: Bool { true }

    func marks(for account: String) throws -> [(uri: String, author: String, createdAt: UTCTime)] {
        try database.query("SELECT uri, author, created_at FROM grain_seen_stories WHERE account = $1", [account]).compactMap { row in
            guard let uri = row.string("uri"), let author = row.string("author"), let micros = row.int("created_at") else { return nil }
            return (uri, author, UTCTime(microseconds: Int64(micros)))
        }
    }

    func insert(_ marks: [SeenMarks.Mark]) throws {
        try database.transaction { connection in
            for mark in marks {
                try connection.execute(
                    """
                    INSERT INTO grain_seen_stories (account, uri, author, created_at, seen_at) VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT (account, uri) DO NOTHING
                    """, [mark.account, mark.uri, mark.author, mark.createdAt.microseconds, mark.seenAt.microseconds])
            }
        }
    }

    func prune(before cutoff: UTCTime) throws {
        try database.execute("DELETE FROM grain_seen_stories WHERE created_at < $1", [cutoff.microseconds])
    }

    func forget(account: String) throws {
        try database.execute("DELETE FROM grain_seen_stories WHERE account = $1", [account])
    }
}

/// A per-key limit counted in PostgreSQL, so all fronts count one client's attempts together. Each attempt is one
/// upsert: a window starts at a key's first attempt and lasts `window` seconds, as in `WindowCounts`; attempts past
/// the limit are refused (they are counted, which changes nothing: the window still ends when it would have).
struct PostgresRateLimiter: RateLimiting {
    let database: PostgresDatabase
    let scope: String
    let limit: Int
    let window: Int64

    func admit(_ key: String, now: Int64) throws -> RateLimit.Decision {
        let row = try database.query(
            """
            INSERT INTO grain_rate_windows AS w (scope, key, window_start, count) VALUES ($1, $2, $3, 1)
            ON CONFLICT (scope, key) DO UPDATE SET
                window_start = CASE WHEN w.window_start + $4 <= $3 THEN $3 ELSE w.window_start END,
                count = CASE WHEN w.window_start + $4 <= $3 THEN 1 ELSE w.count + 1 END
            RETURNING window_start, count
            """, [scope, String(key.prefix(200)), now, window]
        ).first
        guard let start = row?.int("window_start"), let count = row?.int("count") else { return .allowed }
        return count <= limit ? .allowed : .limited(retryAfter: max(1, Int64(start) + window - now))
    }
}
