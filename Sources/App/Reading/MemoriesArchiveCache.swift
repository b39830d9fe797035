import Caching

/// What `Memories` read from a remote hatk's archives, kept per key for a while: the shared ``Cache`` on Unix seconds.
/// Requests that miss the same key at once share one read (a home page and a kiosk opened together cost one scan
/// per author, not one each), a failed read is not kept, and when the cache is full the least recently used entry
/// goes, so a busy front keeps its warm archives instead of starting over cold.
final class MemoriesArchiveCache<Value: Sendable>: Sendable {
    /// How long (seconds) an entry is served after its read.
    let lifetime: Int64
    private let entries: Cache<String, Value>

    init(capacity: Int, lifetime: Int64) {
        self.lifetime = lifetime
        entries = Cache(capacity: capacity, lifetime: .seconds(lifetime))
    }

    /// The entry for `key` while it is fresh at `now` (Unix seconds); otherwise the read under way for it, or a new
    /// one by `load`, whose answer is kept for `lifetime` from `now`.
    func value(for key: String, now: Int64, load: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await entries.value(for: key, now: .seconds(now), load: load)
    }

    /// Entries held, fresh or not (reads under way not counted).
    var count: Int { entries.count }
}
