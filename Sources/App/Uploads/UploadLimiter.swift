import HTTPServer
import Synchronization

/// Counts uploads per client address in fixed one-minute windows, so that one client cannot keep the image
/// workers busy for everyone. Every attempt that reaches processing counts, whether it succeeds or not.
/// A value type driven by `now` (Unix seconds), tested without a clock.
struct UploadRateLimiter: Sendable {
    /// The answer for one upload.
    enum Decision: Sendable, Equatable {
        case allowed
        /// Refused; the window ends `retryAfter` seconds from now.
        case limited(retryAfter: Int64)
    }

    static let sweepThreshold = WindowCounts.sweepThreshold

    private var counts: WindowCounts
    var limit: Int { counts.limit }
    var window: Int64 { counts.window }

    /// - Parameters:
    ///   - limit: uploads allowed per key and window.
    ///   - window: the window length in seconds.
    init(limit: Int, window: Int64 = 60) {
        counts = WindowCounts(limit: limit, window: window)
    }

    /// Counts one upload from `key` if it is within the limit.
    mutating func admit(_ key: String, now: Int64) -> Decision {
        if let wait = counts.wait(for: [key], now: now) { return .limited(retryAfter: wait) }
        counts.record([key], now: now)
        return .allowed
    }

    /// The number of keys tracked, for tests of the sweep.
    var trackedKeys: Int { counts.trackedKeys }
}

/// The limiter shared by every request of one server.
final class UploadLimiter: Sendable {
    private let state: Mutex<UploadRateLimiter>

    /// - Parameter perMinute: uploads one client address may make per minute.
    init(perMinute: Int) {
        state = Mutex(UploadRateLimiter(limit: perMinute))
    }

    func admit(_ key: String, now: Int64) -> UploadRateLimiter.Decision {
        state.withLock { $0.admit(key, now: now) }
    }
}
