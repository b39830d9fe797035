import HTTPServer

/// Counts failed sign-ins per key (a client IP, a username) in fixed windows.
///
/// Only failures count, so a household member signing in on several devices is never locked out by their own
/// successes. A value type driven by `now`, tested without a clock.
struct SignInRateLimiter: Sendable {
    /// The answer for one attempt.
    enum Decision: Sendable, Equatable {
        case allowed
        /// Refused; the earliest retry is `retryAfter` seconds away.
        case limited(retryAfter: Int64)
    }

    static let sweepThreshold = WindowCounts.sweepThreshold

    private var counts: WindowCounts
    var limit: Int { counts.limit }
    var window: Int64 { counts.window }

    /// - Parameters:
    ///   - limit: failures allowed per key and window.
    ///   - window: the window length in seconds.
    init(limit: Int, window: Int64) {
        counts = WindowCounts(limit: limit, window: window)
    }

    /// Whether an attempt under all of `keys` may go ahead; the longest wait wins when several are over the limit.
    func check(_ keys: [String], now: Int64) -> Decision {
        counts.wait(for: keys, now: now).map { .limited(retryAfter: $0) } ?? .allowed
    }

    /// Counts one failed attempt against each key.
    mutating func recordFailure(_ keys: [String], now: Int64) {
        counts.record(keys, now: now)
    }

    /// The number of keys tracked, for tests of the sweep.
    var trackedKeys: Int { counts.trackedKeys }
}
