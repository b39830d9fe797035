import ATProto
import Crypto
import Foundation
import HatkClient
import Storage
import Synchronization

/// A signed-in browser session as the server keeps it.
struct BrowserSession: Sendable, Equatable {
    /// SHA-256 of the cookie value: the id itself is never stored.
    var idHash: String
    var did: String
    var handle: String
    var tokens: TokenSet
    var dpopKey: [UInt8]
    /// The origin the person signed in on: the embedded server issued the tokens to it, so proofs name it.
    var origin: String
}

/// Browser sessions and pending sign-ins in `<data>/front.sqlite` (which also holds `SeenStore`'s table). Tokens and DPoP keys are sealed with
/// the data key, bound to their row, so a copied database alone reveals nothing usable.
final class SessionStore: Sendable {
    let database: Database
    let key: SealingKey
    /// Sessions read lately, by id hash, so a signed-in page (and an upload's admission) costs no database read
    /// and no decryption: every change to a row goes through this store, which updates or drops its entry.
    let cache = Mutex<[String: Cached]>([:])
    static let cacheCapacity = 4096

    struct Cached {
        var session: BrowserSession
        var expiresAt: Int64
    }

    static let migrations = [
        """
        CREATE TABLE sessions (
            id_hash TEXT PRIMARY KEY,
            did TEXT NOT NULL,
            handle TEXT NOT NULL,
            sealed_tokens BLOB NOT NULL,
            sealed_key BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL
        );
        CREATE TABLE pending_sign_ins (
            state TEXT PRIMARY KEY,
            sealed BLOB NOT NULL,
            next TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        """,
        // Seen stories per account (SeenStore); created_at in microseconds since 1970.
        """
        CREATE TABLE seen_stories (
            account TEXT NOT NULL,
            uri TEXT NOT NULL,
            author TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            seen_at INTEGER NOT NULL,
            PRIMARY KEY (account, uri)
        );
        """,
        // Pending sign-ins are bound to the browser that started them (the hash of a short-lived cookie), the
        // session keeps the origin it was made on, and every column pruning scans is indexed.
        """
        ALTER TABLE pending_sign_ins ADD COLUMN browser_hash TEXT NOT NULL DEFAULT '';
        ALTER TABLE sessions ADD COLUMN origin TEXT NOT NULL DEFAULT '';
        CREATE INDEX sessions_by_expiry ON sessions(expires_at);
        CREATE INDEX pending_by_age ON pending_sign_ins(created_at);
        CREATE INDEX seen_by_age ON seen_stories(created_at);
        """,
    ]

    /// An upper bound on a session row's life. The grant usually ends first: when the server refuses a
    /// refresh (`invalid_grant`, e.g. hatk's 14-day refresh tokens), the session ends then.
    static let lifetime: Int64 = 30 * 86400

    init(path: String, key: SealingKey) throws {
        database = try Database(path: path)
        try database.migrate(Self.migrations)
        self.key = key
    }

    static func hash(_ sessionID: String) -> String { Hex.encode(SHA256.hash(sessionID)) }

    /// The session `sessionID` names if it is in memory and live; nil when it is not cached (the caller takes the
    /// full path, which reads the database) or expired.
    func cachedSession(id sessionID: String, now: Int64) -> BrowserSession? {
        guard let hit = cache.withLock({ $0[Self.hash(sessionID)] }), hit.expiresAt > now else { return nil }
        return hit.session
    }

    /// Whether `sessionID` names a live session (for admission checks on the server thread: mostly a cache hit).
    func isLive(id sessionID: String, now: Int64) throws -> Bool {
        try session(id: sessionID, now: now) != nil
    }

    /// Stores a new session; its lifetime runs from `now` and never slides.
    func create(_ session: BrowserSession, now: Int64) throws {
        let tokens = try key.seal(Array(try JSONEncoder().encode(session.tokens)), context: "tokens:\(session.idHash)")
        let dpop = try key.seal(session.dpopKey, context: "dpop:\(session.idHash)")
        try database.write {
            try $0.execute(
                """
                INSERT INTO sessions (id_hash, did, handle, sealed_tokens, sealed_key, created_at, expires_at, origin)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [session.idHash, session.did, session.handle, tokens, dpop, now, now + Self.lifetime, session.origin])
        }
    }

    /// Replaces a live session's tokens after a refresh. Only an existing row changes: a refresh that finishes
    /// after the person signed out does not bring the session back, and the session's end stays where it was.
    /// - Returns: false when the session is gone.
    @discardableResult
    func updateTokens(_ tokens: TokenSet, idHash: String) throws -> Bool {
        let sealed = try key.seal(Array(try JSONEncoder().encode(tokens)), context: "tokens:\(idHash)")
        return try database.write {
            try $0.execute("UPDATE sessions SET sealed_tokens = ? WHERE id_hash = ?", [sealed, idHash])
            let changed = $0.changes > 0
            cache.withLock { $0[idHash]?.session.tokens = tokens }
            return changed
        }
    }

    /// Deletes expired sessions and abandoned sign-ins.
    func prune(now: Int64) throws {
        cache.withLock { $0 = $0.filter { $0.value.expiresAt > now } }
        try database.write {
            try $0.execute("DELETE FROM sessions WHERE expires_at <= ?", [now])
            try $0.execute("DELETE FROM pending_sign_ins WHERE created_at < ?", [now - Self.pendingLifetime])
        }
    }

    /// A sign-in must come back within ten minutes (the authorization server's own limit).
    static let pendingLifetime: Int64 = 600

    func session(id sessionID: String, now: Int64) throws -> BrowserSession? {
        try session(idHash: Self.hash(sessionID), now: now)
    }

    func session(idHash: String, now: Int64) throws -> BrowserSession? {
        if let hit = cache.withLock({ $0[idHash] }) {
            return hit.expiresAt > now ? hit.session : nil
        }
        guard
            let row = try database.read({
                try $0.queryOne("SELECT * FROM sessions WHERE id_hash = ? AND expires_at > ?", [idHash, now])
            }), let sealedTokens = row.bytes("sealed_tokens"), let sealedKey = row.bytes("sealed_key")
        else { return nil }
        // A row that no longer opens (key rotated, tampering) is treated as signed out.
        guard let tokenBytes = try? key.open(sealedTokens, context: "tokens:\(idHash)"),
            let tokens = try? JSONDecoder().decode(TokenSet.self, from: Data(tokenBytes)),
            let dpopKey = try? key.open(sealedKey, context: "dpop:\(idHash)")
        else { return nil }
        let session = BrowserSession(
            idHash: idHash, did: row.string("did") ?? "", handle: row.string("handle") ?? "", tokens: tokens, dpopKey: dpopKey,
            origin: row.string("origin") ?? "")
        let expiresAt = Int64(row.int("expires_at") ?? 0)
        cache.withLock { cache in
            if cache.count >= Self.cacheCapacity { cache.removeAll() }
            cache[idHash] = Cached(session: session, expiresAt: expiresAt)
        }
        return session
    }

    func delete(idHash: String) throws {
        cache.withLock { _ = $0.removeValue(forKey: idHash) }
        try database.write { try $0.execute("DELETE FROM sessions WHERE id_hash = ?", [idHash]) }
    }

    /// Keeps a sign-in in progress until its callback, bound to the browser that started it: `browser` is the
    /// value of the short-lived sign-in cookie that browser was given, of which only the hash is stored.
    func savePending(_ pending: PendingAuthorization, next: String, browser: String) throws {
        let sealed = try key.seal(Array(try JSONEncoder().encode(pending)), context: "pending:\(pending.state)")
        try database.write {
            try $0.execute(
                "INSERT INTO pending_sign_ins (state, sealed, next, created_at, browser_hash) VALUES (?, ?, ?, ?, ?)",
                [pending.state, sealed, next, pending.createdAt, Self.hash(browser)])
        }
    }

    /// Why a callback's sign-in cannot be used.
    enum PendingRefusal: Error, Equatable {
        /// No such sign-in (expired, used, or never started).
        case unknown
        /// It was started by another browser: a link someone sent, the login-CSRF attack.
        case otherBrowser
    }

    /// Takes (and removes) a pending sign-in, so a callback can be used once only, and only by the browser that
    /// started it.
    func takePending(state: String, browser: String?) throws -> Result<(PendingAuthorization, next: String), PendingRefusal> {
        let row = try database.write { connection -> Row? in
            let row = try connection.queryOne("SELECT sealed, next, browser_hash FROM pending_sign_ins WHERE state = ?", [state])
            try connection.execute("DELETE FROM pending_sign_ins WHERE state = ?", [state])
            return row
        }
        guard let row, let sealed = row.bytes("sealed"), let bytes = try? key.open(sealed, context: "pending:\(state)"),
            let pending = try? JSONDecoder().decode(PendingAuthorization.self, from: Data(bytes))
        else { return .failure(.unknown) }
        guard let browser, let stored = row.string("browser_hash"),
            constantTimeEquals(Array(stored.utf8), Array(Self.hash(browser).utf8))
        else { return .failure(.otherBrowser) }
        return .success((pending, row.string("next") ?? "/"))
    }
}
