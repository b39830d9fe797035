import ATProto
import Crypto
public import HatkClient

/// Where the front keeps browser sessions and sign-ins in progress: `SessionStore` (one process, `front.sqlite`)
/// or `PostgresSessionStore` (several fronts behind one load balancer, `--sessions postgres://...`). Either way
/// tokens and DPoP keys are sealed with the data key, bound to their row (`SessionSealing`).
public protocol SessionStoring: Sendable {
    /// Stores a new session; its lifetime runs from `now` and never slides.
    func create(_ session: BrowserSession, now: Int64) throws

    /// Replaces a live session's tokens after a refresh. Only an existing row changes: a refresh that finishes
    /// after the person signed out does not bring the session back, and the session's end stays where it was.
    /// - Returns: false when the session is gone.
    @discardableResult
    func updateTokens(_ tokens: TokenSet, idHash: String) throws -> Bool

    /// The live session whose cookie hashes to `idHash`; nil when it expired, was deleted or does not open (a rotated
    /// key or an edited row), all of which the front treats as signed out.
    func session(idHash: String, now: Int64) throws -> BrowserSession?

    /// The session `sessionID` names when this process holds it in memory and it is live, without touching the
    /// database: for the server thread's fast path, which must not block. Nil sends the request the full path,
    /// which calls `session(idHash:now:)`.
    func cachedSession(id sessionID: String, now: Int64) -> BrowserSession?

    /// Ends a session (sign-out) on every front that reads this store.
    func delete(idHash: String) throws

    /// Sessions not yet pruned (for the metrics).
    func count() throws -> Int

    /// Deletes every session of one account (a member disabled or removed by the owner).
    func deleteAll(of did: String) throws

    /// Deletes expired sessions and abandoned sign-ins.
    func prune(now: Int64) throws

    /// Keeps a sign-in in progress until its callback, bound to the browser that started it: `browser` is the
    /// value of the short-lived sign-in cookie that browser was given, of which only the hash is stored.
    func savePending(_ pending: PendingAuthorization, next: String, browser: String) throws

    /// Takes (and removes) a pending sign-in, so a callback can be used once only, and only by the browser that
    /// started it.
    func takePending(state: String, browser: String?) throws -> Result<(PendingAuthorization, next: String), PendingRefusal>

    /// Runs `body` (a token refresh) while no other holder of this store, in this process or another, refreshes
    /// the same session: refresh tokens rotate, so a second refresh with the old one would end the session.
    func whileRefreshing<T: Sendable>(idHash: String, _ body: () async throws -> T) async throws -> T
}

extension SessionStoring {
    /// The session a cookie value names, if it is live: the cookie's value is never stored, only its hash.
    public func session(id sessionID: String, now: Int64) throws -> BrowserSession? {
        try session(idHash: BrowserSession.hash(sessionID), now: now)
    }

    /// Whether `sessionID` names a live session, for admission checks that refuse a body before reading it.
    public func isLive(id sessionID: String, now: Int64) throws -> Bool {
        try session(id: sessionID, now: now) != nil
    }
}

/// Why a callback's sign-in cannot be used.
public enum PendingRefusal: Error, Equatable {
    /// No such sign-in (expired, used, or never started).
    case unknown
    /// It was started by another browser: a link someone sent, the login-CSRF attack.
    case otherBrowser
}

extension BrowserSession {
    /// SHA-256 of the cookie value: the id itself is never stored.
    public static func hash(_ sessionID: String) -> String { Hex.encode(SHA256.hash(sessionID)) }

    /// An upper bound on a session row's life. The grant usually ends first: when the server refuses a
    /// refresh (`invalid_grant`, e.g. hatk's 14-day refresh tokens), the session ends then.
    public static let lifetime: Int64 = 30 * 86400

    /// A sign-in must come back within ten minutes (the authorization server's own limit).
    public static let pendingLifetime: Int64 = 600
}
