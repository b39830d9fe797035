/// Slows down password guessing without locking a member out (issue 11.9).
///
/// The design:
/// - Failures are counted per key: the resolved account (its DID, so the handle, the short name and the DID are
///   one account, not three; a name that resolves to nobody is its own key), the client address, and a device.
/// - A key's first `freeFailures` failures cost nothing. After that each attempt must wait, and the wait doubles
///   with every further failure (`firstDelay`, twice that, ... up to `maxDelay`). Waiting is enforced as a 429
///   with Retry-After, never by holding a connection. A key is forgotten `forgetAfter` after its last failure.
/// - A browser that signed in to an account before carries a signed device cookie for it (``DeviceCookie``).
///   Its attempts on that account are counted on that device alone, not on the account or its address, so an
///   attacker who exhausts the account's budget from elsewhere cannot lock the member out of their own devices.
///   Only a member on a device they never signed in on waits, like the attacker.
/// - Successes never reset the account or address keys (an attacker would otherwise get a fresh budget every
///   time the member signs in); they reset the device key.
///
/// With the defaults an attacker without a device cookie gets 5 guesses per account, about 9 more in the next
/// 17 minutes, then 4 an hour. The table stays small because every counted failure cost a scrypt hash on the
/// bounded hashing queue first. A value type driven by `now` (Unix seconds), tested without a clock.
struct SignInThrottle: Sendable {
    /// How one kind of key is throttled.
    struct Policy: Sendable, Equatable {
        /// Failures before attempts must wait.
        var freeFailures: Int
        /// The wait after the first failure past the free ones, in seconds; it doubles with each further failure.
        var firstDelay: Int64
        /// The longest wait, in seconds.
        var maxDelay: Int64

        /// Seconds an attempt must wait after `failures` failures, the last one at `last`; nil when it need not.
        func wait(failures: Int, last: Int64, now: Int64) -> Int64? {
            guard failures >= freeFailures else { return nil }
            var delay = max(1, firstDelay)
            for _ in 0..<min(failures - freeFailures, 64) where delay < maxDelay {
                delay = delay > maxDelay / 2 ? maxDelay : delay * 2
            }
            let (until, overflow) = last.addingReportingOverflow(min(delay, maxDelay))
            let wait = overflow ? Int64.max : until - now
            return wait > 0 ? wait : nil
        }
    }

    private struct Counter: Sendable {
        var failures: Int
        var last: Int64
    }

    /// Keys kept before forgotten ones are swept.
    static let sweepThreshold = 1024

    /// Seconds after its last failure that a key is forgotten.
    let forgetAfter: Int64
    private var counters: [String: Counter] = [:]

    init(forgetAfter: Int64) {
        self.forgetAfter = max(1, forgetAfter)
    }

    /// Seconds until an attempt counted on every one of `keys` may go ahead; nil when it may now. The longest
    /// wait wins.
    func wait(for keys: [(key: String, policy: Policy)], now: Int64) -> Int64? {
        var longest: Int64?
        for (key, policy) in keys {
            guard let counter = live(key, now: now),
                let wait = policy.wait(failures: counter.failures, last: counter.last, now: now)
            else { continue }
            longest = max(longest ?? 0, wait)
        }
        return longest
    }

    /// Counts one failed attempt against each key.
    mutating func recordFailure(_ keys: [String], now: Int64) {
        if counters.count >= Self.sweepThreshold {
            counters = counters.filter { now - $0.value.last < forgetAfter }
        }
        for key in keys {
            let failures = (live(key, now: now)?.failures ?? 0) + 1
            counters[key] = Counter(failures: failures, last: now)
        }
    }

    /// Forgets a key's failures.
    mutating func reset(_ key: String) {
        counters[key] = nil
    }

    /// Failures counted on a key right now.
    func failures(_ key: String, now: Int64) -> Int {
        live(key, now: now)?.failures ?? 0
    }

    /// The number of keys tracked, for tests of the sweep.
    var trackedKeys: Int { counters.count }

    private func live(_ key: String, now: Int64) -> Counter? {
        guard let counter = counters[key], now - counter.last < forgetAfter else { return nil }
        return counter
    }
}
