/// Counts events per key (a client address, a username) in fixed windows: the shared core of the sign-in and
/// upload limits. A value type driven by `now` (Unix seconds), tested without a clock.
public struct WindowCounts: Sendable {
    private struct Counter: Sendable {
        var windowStart: Int64
        var count: Int
    }

    /// Entries kept before expired ones are swept, so the table stays small under a spray of addresses.
    public static let sweepThreshold = 1024

    public let limit: Int
    public let window: Int64
    private var counters: [String: Counter] = [:]

    /// - Parameters:
    ///   - limit: events allowed per key and window.
    ///   - window: the window length in seconds.
    public init(limit: Int, window: Int64) {
        self.limit = max(1, limit)
        self.window = max(1, window)
    }

    /// Seconds until every key in `keys` is under its limit again; nil when all already are. The longest wait wins.
    public func wait(for keys: [String], now: Int64) -> Int64? {
        var wait: Int64 = 0
        for key in keys {
            guard let counter = counters[key], now < counter.windowStart + window, counter.count >= limit else {
                continue
            }
            wait = max(wait, counter.windowStart + window - now)
        }
        return wait > 0 ? wait : nil
    }

    /// Counts one event against each key.
    public mutating func record(_ keys: [String], now: Int64) {
        if counters.count >= Self.sweepThreshold {
            counters = counters.filter { now < $0.value.windowStart + window }
        }
        for key in keys {
            if var counter = counters[key], now < counter.windowStart + window {
                counter.count += 1
                counters[key] = counter
            } else {
                counters[key] = Counter(windowStart: now, count: 1)
            }
        }
    }

    /// The number of keys tracked, for tests of the sweep.
    public var trackedKeys: Int { counters.count }
}
