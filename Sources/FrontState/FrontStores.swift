public import Crypto

/// Where one front keeps its state: sessions and sign-ins in progress, seen marks, and the counts behind its
/// limits. A front that runs alone keeps them in `front.sqlite` (limits in memory); fronts behind one load balancer
/// share them in PostgreSQL, so a sign-out, a seen mark or a limit holds whichever front a request reaches.
public struct FrontStores: Sendable {
    /// Sessions and sign-ins in progress.
    public let sessions: any SessionStoring
    /// Seen marks, written a moment after each page view.
    public let seen: SeenMarks
    private let makeLimiter: @Sendable (_ scope: String, _ limit: Int, _ window: Int64) -> any RateLimiting

    /// A front that runs alone: `front.sqlite` in `dataDirectory`, sealed with `sealingKey`; limits in memory.
    public static func local(dataDirectory: String, sealingKey: SealingKey) throws -> FrontStores {
        let local = try SessionStore(path: databasePath(in: dataDirectory), key: sealingKey)
        return FrontStores(sessions: local, seen: SeenMarks(beside: local)) { _, limit, window in
            RateLimiter(limit: limit, window: window)
        }
    }

    /// Fronts sharing one PostgreSQL database (`--sessions postgres://...`).
    public static func shared(_ shared: SharedSessions) -> FrontStores {
        FrontStores(sessions: shared.sessions, seen: SeenMarks(storage: shared.seen)) { scope, limit, window in
            shared.limiter(scope: scope, limit: limit, window: window)
        }
    }

    init(
        sessions: any SessionStoring, seen: SeenMarks,
        makeLimiter: @escaping @Sendable (_ scope: String, _ limit: Int, _ window: Int64) -> any RateLimiting
    ) {
        self.sessions = sessions
        self.seen = seen
        self.makeLimiter = makeLimiter
    }

    /// A limit of `limit` attempts per `window` seconds, counted under `scope` (one scope per kind of attempt, so
    /// sign-ins and uploads never share counts).
    public func limiter(scope: String, limit: Int, window: Int64 = 60) -> any RateLimiting {
        makeLimiter(scope, limit, window)
    }

    /// Where a front that runs alone keeps its sessions and seen marks.
    public static func databasePath(in dataDirectory: String) -> String { dataDirectory + "/front.sqlite" }
}
