import Foundation
import Synchronization

/// A short-lived cache of successful query answers, keyed by URL: hot reads such as the author list
/// are asked of the upstream at most once per `ttl`, however many pages render meanwhile. Writes made
/// through this client clear it, so a person always sees their own changes at once.
final class ReadCache: Sendable {
    private struct Entry {
        var expires: ContinuousClock.Instant
        var data: Data
    }

    let ttl: Duration
    let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(ttl: Duration, capacity: Int = 512) {
        self.ttl = ttl
        self.capacity = capacity
    }

    func get(_ key: String) -> Data? {
        guard ttl > .zero else { return nil }
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            if entry.expires < now {
                entries[key] = nil
                return nil
            }
            return entry.data
        }
    }

    func put(_ key: String, _ data: Data) {
        guard ttl > .zero else { return }
        let expires = ContinuousClock.now + ttl
        entries.withLock { entries in
            // Bounded: when full, drop everything expired, then (rarely) everything.
            if entries.count >= capacity {
                let now = ContinuousClock.now
                entries = entries.filter { $0.value.expires >= now }
                if entries.count >= capacity { entries.removeAll() }
            }
            entries[key] = Entry(expires: expires, data: data)
        }
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
