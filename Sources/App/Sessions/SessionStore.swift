import ATProto
import Crypto
import Foundation
import HatkClient
import Storage

/// A signed-in browser session as the server keeps it.
struct BrowserSession: Sendable, Equatable {
    /// SHA-256 of the cookie value: the id itself is never stored.
    var idHash: String
    var did: String
    var handle: String
    var tokens: TokenSet
    var dpopKey: [UInt8]
}

/// Browser sessions and pending sign-ins in `<data>/front.sqlite` (which also holds `SeenStore`'s table). Tokens and DPoP keys are sealed with
/// the data key, bound to their row, so a copied database alone reveals nothing usable.
final class SessionStore: Sendable {
    let database: Database
    let key: SealingKey

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

    func save(_ session: BrowserSession, now: Int64) throws {
        let tokens = try key.seal(Array(try JSONEncoder().encode(session.tokens)), context: "tokens:\(session.idHash)")
        let dpop = try key.seal(session.dpopKey, context: "dpop:\(session.idHash)")
        try database.write {
            try $0.execute(
                """
                INSERT OR REPLACE INTO sessions (id_hash, did, handle, sealed_tokens, sealed_key, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [session.idHash, session.did, session.handle, tokens, dpop, now, now + Self.lifetime])
        }
    }

    func session(id sessionID: String, now: Int64) throws -> BrowserSession? {
        try session(idHash: Self.hash(sessionID), now: now)
    }

    func session(idHash: String, now: Int64) throws -> BrowserSession? {
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
        return BrowserSession(idHash: idHash, did: row.string("did") ?? "", handle: row.string("handle") ?? "", tokens: tokens, dpopKey: dpopKey)
    }

    func delete(idHash: String) throws {
        try database.write { try $0.execute("DELETE FROM sessions WHERE id_hash = ?", [idHash]) }
    }

    func savePending(_ pending: PendingAuthorization, next: String) throws {
        let sealed = try key.seal(Array(try JSONEncoder().encode(pending)), context: "pending:\(pending.state)")
        try database.write {
            try $0.execute("DELETE FROM pending_sign_ins WHERE created_at < ?", [pending.createdAt - 600])
            try $0.execute(
                "INSERT INTO pending_sign_ins (state, sealed, next, created_at) VALUES (?, ?, ?, ?)",
                [pending.state, sealed, next, pending.createdAt])
        }
    }

    /// Takes (and removes) a pending sign-in, so a callback can be used once only.
    func takePending(state: String) throws -> (PendingAuthorization, next: String)? {
        let row = try database.write { connection -> Row? in
            let row = try connection.queryOne("SELECT sealed, next FROM pending_sign_ins WHERE state = ?", [state])
            try connection.execute("DELETE FROM pending_sign_ins WHERE state = ?", [state])
            return row
        }
        guard let row, let sealed = row.bytes("sealed"), let bytes = try? key.open(sealed, context: "pending:\(state)"),
            let pending = try? JSONDecoder().decode(PendingAuthorization.self, from: Data(bytes))
        else { return nil }
        return (pending, row.string("next") ?? "/")
    }
}
