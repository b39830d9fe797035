import ATProto
import Caching
public import Crypto
import Foundation
public import HatkClient
import Storage

/// A signed-in browser session as the server keeps it.
public struct BrowserSession: Sendable, Equatable {
    /// SHA-256 of the cookie value: the id itself is never stored.
    public var idHash: String
    /// The account signed in, which pages and roles are decided for; always the sealed tokens' subject.
    public var did: String
    /// The handle the account had at sign-in, for pages to name the person without a look-up.
    public var handle: String
    /// The grant the front calls the story server with on the person's behalf.
    public var tokens: TokenSet
    /// The DPoP private key the tokens are bound to: without it the tokens are useless, so it is sealed as they are.
    public var dpopKey: [UInt8]
    /// The origin the person signed in on: the embedded server issued the tokens to it, so proofs name it.
    public var origin: String

    /// A session as a finished sign-in makes it (the front's callback), before any store has it.
    public init(idHash: String, did: String, handle: String, tokens: TokenSet, dpopKey: [UInt8], origin: String) {
        self.idHash = idHash
        self.did = did
        self.handle = handle
        self.tokens = tokens
        self.dpopKey = dpopKey
        self.origin = origin
    }
}

/// Browser sessions and pending sign-ins in `<data>/front.sqlite` (which also holds `SeenMarks`' table), for a
/// front that runs as one process. Tokens and DPoP keys are sealed with the data key, bound to their row, so a
/// copied database alone reveals nothing usable.
public final class SessionStore: SessionStoring {
    let database: Database
    let sealing: SessionSealing
    /// Sessions read lately, by id hash, so a signed-in page (and an upload's admission) costs no database read
    /// and no decryption: every change to a row goes through this store, which updates or drops its entry. Only one
    /// process writes this file, so nothing else can change a row behind the cache's back (a `users` command beside a
    /// running server is the exception docs/operations.md describes). Each entry expires with its row (Unix
    /// seconds); past `cacheCapacity` the least recently used goes.
    let cache = Cache<SHA256.Digest, BrowserSession>(capacity: SessionStore.cacheCapacity)
    static let cacheCapacity = 4096

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

    /// Opens (and migrates) the front's own database; the key seals what a copied file would otherwise give away.
    public init(path: String, key: SealingKey) throws {
        database = try Database(path: path)
        try database.migrate(Self.migrations)
        sealing = SessionSealing(key: key)
    }

    /// The session `sessionID` names if it is in memory and live; nil when it is not cached (the caller takes the
    /// full path, which reads the database) or expired.
    public func cachedSession(id sessionID: String, now: Int64) -> BrowserSession? {
        cache.value(for: SHA256.digest(sessionID), now: .seconds(now))
    }

    /// Seals the tokens and key to this row, so a copied `front.sqlite` gives no usable credentials.
    public func create(_ session: BrowserSession, now: Int64) throws {
        let tokens = try sealing.sealTokens(session.tokens, idHash: session.idHash)
        let dpop = try sealing.sealKey(session.dpopKey, idHash: session.idHash)
        try database.write {
            try $0.execute(
                """
                INSERT INTO sessions (id_hash, did, handle, sealed_tokens, sealed_key, created_at, expires_at, origin)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [session.idHash, session.did, session.handle, tokens, dpop, now, now + BrowserSession.lifetime, session.origin])
        }
    }

    /// Changes the row and the cached copy together, so the next page calls with the rotated tokens.
    @discardableResult
    public func updateTokens(_ tokens: TokenSet, idHash: String) throws -> Bool {
        let sealed = try sealing.sealTokens(tokens, idHash: idHash)
        return try database.write {
            try $0.execute("UPDATE sessions SET sealed_tokens = ? WHERE id_hash = ?", [sealed, idHash])
            let changed = $0.changes > 0
            if let key = SHA256.Digest(hex: idHash) { cache.modify(key) { $0.tokens = tokens } }
            return changed
        }
    }

    /// Drops expired entries from the cache too, so it never answers for a session the table no longer has.
    public func prune(now: Int64) throws {
        cache.removeExpired(now: .seconds(now))
        try database.write {
            try $0.execute("DELETE FROM sessions WHERE expires_at <= ?", [now])
            try $0.execute("DELETE FROM pending_sign_ins WHERE created_at < ?", [now - BrowserSession.pendingLifetime])
        }
    }

    /// Reads through the cache: a signed-in page usually costs no database read and no decryption. A cached session
    /// that has expired is dropped, and the row (which expires with it) is not found either.
    public func session(idHash: String, now: Int64) throws -> BrowserSession? {
        let key = SHA256.Digest(hex: idHash)
        if let key, let hit = cache.value(for: key, now: .seconds(now)) { return hit }
        guard
            let row = try database.read({
                try $0.queryOne("SELECT * FROM sessions WHERE id_hash = ? AND expires_at > ?", [idHash, now])
            }), let session = sealing.session(idHash: idHash, row: row)
        else { return nil }
        let expiresAt = Int64(row.int("expires_at") ?? 0)
        if let key { cache.insert(session, for: key, expires: .seconds(expiresAt)) }
        return session
    }

    /// Drops the cached copy first, so a signed-out cookie stops working on the fast path too.
    public func delete(idHash: String) throws {
        if let key = SHA256.Digest(hex: idHash) { cache.removeValue(for: key) }
        try database.write { try $0.execute("DELETE FROM sessions WHERE id_hash = ?", [idHash]) }
    }

    /// Only the hash of the browser's sign-in cookie is kept, so the table alone cannot finish anyone's sign-in.
    public func savePending(_ pending: PendingAuthorization, next: String, browser: String) throws {
        let sealed = try sealing.sealPending(pending)
        try database.write {
            try $0.execute(
                "INSERT INTO pending_sign_ins (state, sealed, next, created_at, browser_hash) VALUES (?, ?, ?, ?, ?)",
                [pending.state, sealed, next, pending.createdAt, BrowserSession.hash(browser)])
        }
    }

    /// Reads and deletes in one write transaction, so a callback can be used once only.
    public func takePending(state: String, browser: String?) throws -> Result<(PendingAuthorization, next: String), PendingRefusal> {
        let row = try database.write { connection -> Row? in
            let row = try connection.queryOne("SELECT sealed, next, browser_hash FROM pending_sign_ins WHERE state = ?", [state])
            try connection.execute("DELETE FROM pending_sign_ins WHERE state = ?", [state])
            return row
        }
        return sealing.pending(state: state, row: row, browser: browser)
    }

    /// One process owns this file, so the front's `RefreshCoordinator` alone keeps refreshes apart.
    public func whileRefreshing<T: Sendable>(idHash: String, _ body: () async throws -> T) async throws -> T {
        try await body()
    }
}
