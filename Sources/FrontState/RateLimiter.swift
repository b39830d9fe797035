import RateLimits
import Synchronization

/// Counts attempts per client address in fixed one-minute windows, so that one client cannot keep the image
/// workers (uploads) or the sign-in server (sign-ins) busy for everyone. Every attempt counts, whether it
/// succeeds or not. A value type driven by `now` (Unix seconds), tested without a clock.
public struct RateLimit: Sendable {
    /// The answer for one attempt.
    public enum Decision: Sendable, Equatable {
        /// Within the limit: the attempt goes ahead, and it counted.
        case allowed
        /// Refused; the window ends `retryAfter` seconds from now.
        case limited(retryAfter: Int64)
    }

    static let sweepThreshold = WindowCounts.sweepThreshold

    private var counts: WindowCounts
    var limit: Int { counts.limit }
    var window: Int64 { counts.window }

    /// - Parameters:
    ///   - limit: attempts allowed per key and window.
    ///   - window: the window length in seconds.
    init(limit: Int, window: Int64 = 60) {
        counts = WindowCounts(limit: limit, window: window)
    }

    /// Counts one attempt from `key` if it is within the limit.
    mutating func admit(_ key: String, now: Int64) -> Decision {
        if let wait = counts.wait(for: [key], now: now) { return .limited(retryAfter: wait) }
        counts.record([key], now: now)
        return .allowed
    }

    /// The number of keys tracked, for tests of the sweep.
    var trackedKeys: Int { counts.trackedKeys }
}

/// Counts attempts per key against a limit per window: `RateLimiter` in this process's memory, or
/// `PostgresRateLimiter` shared by the fronts behind one load balancer (so that a client spreading its attempts
/// over them still meets one limit).
public protocol RateLimiting: Sendable {
    /// Counts one attempt from `key` at `now` (Unix seconds) if it is within the limit.
    func admit(_ key: String, now: Int64) throws -> RateLimit.Decision
}

/// A limit shared by every request of one server.
public final class RateLimiter: RateLimiting {
    private let state: Mutex<RateLimit>

    /// A per-client limit in one-minute windows, as uploads, sign-ins, passes and previews are counted.
    /// - Parameter perMinute: attempts one client address may make per minute.
    public init(perMinute: Int) {
        state = Mutex(RateLimit(limit: perMinute))
    }

    /// A limit over a window of any length, for the per-person write limits that also count by the day.
    /// - Parameters:
    ///   - limit: attempts one key may make per window.
    ///   - window: the window's length in seconds.
    public init(limit: Int, window: Int64) {
        state = Mutex(RateLimit(limit: limit, window: window))
    }

    /// Counts under a lock, so concurrent requests from one client cannot both take the last attempt.
    public func admit(_ key: String, now: Int64) -> RateLimit.Decision {
        state.withLock { $0.admit(key, now: now) }
    }
}
