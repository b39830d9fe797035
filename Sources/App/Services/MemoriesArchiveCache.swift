import Caching
import Synchronization

/// What `Memories` read from a remote hatk's archives, kept per key for a while. Requests that miss the same key at
/// once share one read (a home page and a kiosk opened together cost one scan per author, not one each), and when the
/// cache is full the least recently used entry goes, so a busy front keeps its warm archives instead of starting
/// over cold.
final class MemoriesArchiveCache<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        var expires: Int64
    }

    private struct State: Sendable {
        var entries: LRUCache<String, Entry>
        /// Reads under way, by key: a miss for one of these waits for it instead of reading again.
        var loading: [String: Task<Value, any Error>] = [:]
    }

    private enum Lookup {
        case fresh(Value)
        case loading(Task<Value, any Error>)
    }

    /// How long (seconds) an entry is served after its read.
    let lifetime: Int64
    private let state: Mutex<State>

    init(capacity: Int, lifetime: Int64) {
        self.lifetime = lifetime
        state = Mutex(State(entries: LRUCache(capacity: capacity)))
    }

    /// The entry for `key` while it is fresh at `now`; otherwise the read under way for it, or a new one by `load`,
    /// whose answer is kept. A failed read is not kept: everyone waiting on it gets its error, the next miss reads again.
    func value(for key: String, now: Int64, load: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let lookup: Lookup = state.withLock { state in
            if let entry = state.entries.value(for: key), entry.expires > now { return .fresh(entry.value) }
            if let running = state.loading[key] { return .loading(running) }
            // The read takes the lock only when it ends, after this one is released, so it always finds itself listed.
            let read = Task { [self] in
                do {
                    let value = try await load()
                    self.state.withLock { state in
                        state.entries.insert(Entry(value: value, expires: now + lifetime), for: key)
                        state.loading[key] = nil
                    }
                    return value
                } catch {
                    self.state.withLock { $0.loading[key] = nil }
                    throw error
                }
            }
            state.loading[key] = read
            return .loading(read)
        }
        switch lookup {
        case .fresh(let value): return value
        case .loading(let read): return try await read.value
        }
    }

    /// Entries held, fresh or not (reads under way not counted).
    var count: Int { state.withLock { $0.entries.count } }
}
