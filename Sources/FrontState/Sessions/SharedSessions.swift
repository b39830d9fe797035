public import Crypto
import PostgresStorage
import Storage

/// The front's state in PostgreSQL (`--sessions postgres://...`), for several fronts behind one load balancer:
/// sessions, sign-ins in progress, seen marks and rate-limit windows, in tables every front reads and writes. Each
/// front must be given the same sealing key (`GRAIN_STORIES_DATA_KEY` or `--key-file`), since each opens the
/// tokens the others sealed.
public struct SharedSessions: Sendable {
    let database: PostgresDatabase
    /// The sessions and sign-ins in progress every front reads and writes, so a sign-out holds on all of them.
    public let sessions: any SessionStoring
    /// The seen marks every front reads and writes, so a mark made on one front shows on the others.
    public let seen: any SeenStorage

    /// Connects and makes the tables when they are missing (once, however many fronts start together).
    /// - Throws: `PostgresError` when the server cannot be reached, or `SchemaTooNew` when a newer grain-stories
    ///   made the tables.
    public init(url: String, sealingKey: SealingKey) throws {
        database = try PostgresDatabase(url: url)
        try database.prepareSchema(Self.schema, lockKey: Self.schemaLock)
        let version = try database.query("SELECT max(version) AS version FROM grain_front_schema").first?.int("version") ?? 0
        guard version <= Self.version else { throw SchemaTooNew(found: version) }
        sessions = PostgresSessionStore(database: database, sealing: SessionSealing(key: sealingKey))
        seen = PostgresSeenStorage(database: database)
    }

    /// What `/healthz` reports about the shared database: nil when it answers a query, else one short sentence.
    public func healthProblem() -> String? {
        (try? database.query("SELECT 1 AS one")) == nil ? "the shared session database does not answer" : nil
    }

    /// A limit counted in the shared table under `scope` (one scope per kind of attempt), so a client spreading its
    /// attempts over the fronts still meets one limit.
    public func limiter(scope: String, perMinute: Int) -> any RateLimiting {
        limiter(scope: scope, limit: perMinute, window: 60)
    }

    /// A limit of `limit` attempts per `window` seconds, counted in the shared table under `scope`, for limits per
    /// person (a day's comments) that must hold whichever front the person reaches.
    public func limiter(scope: String, limit: Int, window: Int64) -> any RateLimiting {
        PostgresRateLimiter(database: database, scope: scope, limit: limit, window: window)
    }

    /// The tables were made by a newer grain-stories than this one.
    public struct SchemaTooNew: Error, CustomStringConvertible {
        /// The version the tables carry, for the message: it says which grain-stories to upgrade to.
        public let found: Int
        /// What the operator reads at start-up: what is wrong and what to do.
        public var description: String {
            "the shared session tables are version \(found), written by a newer grain-stories (this one knows \(SharedSessions.version)); "
                + "upgrade every front to that version"
        }
    }

    static let version = 1
    /// The advisory lock taken while the schema is made ("grainsch" in ASCII).
    static let schemaLock: Int64 = 0x6772_6169_6E73_6368

    static let schema = [
        """
        CREATE TABLE IF NOT EXISTS grain_front_schema (version INTEGER PRIMARY KEY)
        """,
        """
        CREATE TABLE IF NOT EXISTS grain_sessions (
            id_hash TEXT PRIMARY KEY,
            did TEXT NOT NULL,
            handle TEXT NOT NULL,
            sealed_tokens BYTEA NOT NULL,
            sealed_key BYTEA NOT NULL,
            origin TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL
        )
        """,
        "CREATE INDEX IF NOT EXISTS grain_sessions_by_expiry ON grain_sessions (expires_at)",
        """
        CREATE TABLE IF NOT EXISTS grain_pending_sign_ins (
            state TEXT PRIMARY KEY,
            sealed BYTEA NOT NULL,
            next TEXT NOT NULL,
            browser_hash TEXT NOT NULL,
            created_at BIGINT NOT NULL
        )
        """,
        "CREATE INDEX IF NOT EXISTS grain_pending_by_age ON grain_pending_sign_ins (created_at)",
        """
        CREATE TABLE IF NOT EXISTS grain_seen_stories (
            account TEXT NOT NULL,
            uri TEXT NOT NULL,
            author TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            seen_at BIGINT NOT NULL,
            PRIMARY KEY (account, uri)
        )
        """,
        "CREATE INDEX IF NOT EXISTS grain_seen_by_age ON grain_seen_stories (created_at)",
        """
        CREATE TABLE IF NOT EXISTS grain_rate_windows (
            scope TEXT NOT NULL,
            key TEXT NOT NULL,
            window_start BIGINT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (scope, key)
        )
        """,
        "CREATE INDEX IF NOT EXISTS grain_rate_windows_by_start ON grain_rate_windows (window_start)",
        "INSERT INTO grain_front_schema (version) VALUES (1) ON CONFLICT DO NOTHING",
    ]
}
