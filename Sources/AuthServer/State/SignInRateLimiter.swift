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

    private struct Counter: Sendable {
        var windowStart: Int64
        var failures: Int
    }

    /// Entries kept before expired ones are swept, so the table stays small under a spray of addresses.
    static let sweepThreshold = 1024

    let limit: Int
    let window: Int64
    private var counters: [String: Counter] = [:]

    /// - Parameters:
    ///   - limit: failures allowed per key and window.
    ///   - window: the window length in seconds.
    init(limit: Int, window: Int64) {
        self.limit = max(1, limit)
        self.window = max(1, window)
    }

    /// Whether an attempt under all of `keys` may go ahead; the longest wait wins when several are over the limit.
    func check(_ keys: [String], now: Int64) -> Decision {
        var wait: Int64 = 0
        for key in keys {
            guard let counter = counters[key], now < counter.windowStart + window, counter.failures >= limit else {
                continue
            }
            wait = max(wait, counter.windowStart + window - now)
        }
        return wait > 0 ? .limited(retryAfter: wait) : .allowed
    }

    /// Counts one failed attempt against each key.
    mutating func recordFailure(_ keys: [String], now: Int64) {
        if counters.count >= Self.sweepThreshold {
            counters = counters.filter { now < $0.value.windowStart + window }
        }
        for key in keys {
            if var counter = counters[key], now < counter.windowStart + window {
                counter.failures += 1
                counters[key] = counter
            } else {
                counters[key] = Counter(windowStart: now, failures: 1)
            }
        }
    }

    /// The number of keys tracked, for tests of the sweep.
    var trackedKeys: Int { counters.count }
}
