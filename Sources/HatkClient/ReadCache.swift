import Caching
import Clocks
import Foundation

/// A short-lived cache of successful query answers, keyed by URL: hot reads such as the author list
/// are asked of the upstream at most once per `ttl`, however many pages render meanwhile. Writes made
/// through this client clear it, so a person always sees their own changes at once. The shared ``Cache`` on the
/// injected monotonic clock; when full, the least recently used answer goes.
final class ReadCache: Sendable {
    let ttl: Duration
    let capacity: Int
    private let entries: Cache<String, Data>
    private let clock: MonotonicClock

    init(ttl: Duration, capacity: Int = 512, clock: MonotonicClock = .continuous) {
        self.clock = clock
        self.ttl = ttl
        self.capacity = capacity
        entries = Cache(capacity: ttl > .zero ? capacity : 0, lifetime: ttl)
    }

    private var now: Duration { clock.now() }

    func get(_ key: String) -> Data? {
        guard ttl > .zero else { return nil }
        return entries.value(for: key, now: now)
    }

    func put(_ key: String, _ data: Data) {
        guard ttl > .zero else { return }
        entries.insert(data, for: key, now: now)
    }

    func removeAll() {
        entries.removeAll()
    }
}
