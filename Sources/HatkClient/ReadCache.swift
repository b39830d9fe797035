import Caching
import Foundation

/// A short-lived cache of successful query answers, keyed by URL: hot reads such as the author list
/// are asked of the upstream at most once per `ttl`, however many pages render meanwhile. Writes made
/// through this client clear it, so a person always sees their own changes at once. The shared ``Cache`` on the
/// continuous clock; when full, the least recently used answer goes.
final class ReadCache: Sendable {
    let ttl: Duration
    let capacity: Int
    private let entries: Cache<String, Data>
    /// Where this cache's time starts: `now` is the continuous clock's distance from it.
    private let origin = ContinuousClock.now

    init(ttl: Duration, capacity: Int = 512) {
        self.ttl = ttl
        self.capacity = capacity
        entries = Cache(capacity: ttl > .zero ? capacity : 0, lifetime: ttl)
    }

    private var now: Duration { ContinuousClock.now - origin }

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
