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

    private struct Counter: Sendable {
        var windowStart: Int64
        var uploads: Int
    }

    /// Entries kept before expired ones are swept, so the table stays small under a spray of addresses.
    static let sweepThreshold = 1024

    let limit: Int
    let window: Int64
    private var counters: [String: Counter] = [:]

    /// - Parameters:
    ///   - limit: uploads allowed per key and window.
    ///   - window: the window length in seconds.
    init(limit: Int, window: Int64 = 60) {
        self.limit = max(1, limit)
        self.window = max(1, window)
    }

    /// Counts one upload from `key` if it is within the limit.
    mutating func admit(_ key: String, now: Int64) -> Decision {
        if counters.count >= Self.sweepThreshold {
            counters = counters.filter { now < $0.value.windowStart + window }
        }
        guard var counter = counters[key], now < counter.windowStart + window else {
            counters[key] = Counter(windowStart: now, uploads: 1)
            return .allowed
        }
        guard counter.uploads < limit else { return .limited(retryAfter: counter.windowStart + window - now) }
        counter.uploads += 1
        counters[key] = counter
        return .allowed
    }

    /// The number of keys tracked, for tests of the sweep.
    var trackedKeys: Int { counters.count }
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
