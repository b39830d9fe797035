import Synchronization

/// A bounded cache shared between tasks: an ``LRUCache`` (an entry count, and a cost where the owner gives one)
/// behind a lock, with an optional lifetime per entry and one load per key however many callers miss it at once.
///
/// Time is the owner's: every call that depends on it takes `now`, a `Duration` on whatever clock the owner keeps
/// (Unix seconds as `.seconds(now)`, or a monotonic instant's distance from a fixed one), so the cache itself never
/// reads a clock and tests move time by hand. Without a `lifetime`, `now` is ignored and entries stay until evicted
/// or removed. An entry is fresh while `now` is before its expiry; an expired one is dropped when next looked at.
public final class Cache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        var expires: Duration?

        func isFresh(at now: Duration) -> Bool { expires.map { now < $0 } ?? true }
    }

    private struct State: Sendable {
        var entries: LRUCache<Key, Entry>
        /// Loads under way, by key and numbered: a miss for one of these waits for it instead of loading again.
        var loading: [Key: (number: Int, task: Task<Value, any Error>)] = [:]
        var loadsStarted = 0
        /// Grows with every removal: a load that started before one does not keep its answer.
        var generation = 0

        /// Unlists the load numbered `number` (a removal may have unlisted it and a newer one taken its place).
        mutating func finished(_ key: Key, number: Int) {
            if loading[key]?.number == number { loading[key] = nil }
        }

        /// The fresh entry for `key` (now the most recently used); an expired one is removed.
        mutating func fresh(_ key: Key, now: Duration) -> Value? {
            guard let entry = entries.value(for: key) else { return nil }
            if entry.isFresh(at: now) { return entry.value }
            entries.removeValue(for: key)
            return nil
        }
    }

    private enum Lookup {
        case fresh(Value)
        case loading(Task<Value, any Error>)
    }

    /// How long an entry is fresh after it is stored; nil for as long as it is held.
    public let lifetime: Duration?
    private let cost: @Sendable (Value) -> Int
    private let state: Mutex<State>

    /// - Parameters:
    ///   - capacity: the most entries held; past it the least recently used goes.
    ///   - maximumCost: the most total cost held, each entry costing `cost(value)`; past it the least recently
    ///     used go. Unbounded by default, and each entry costs 1.
    ///   - lifetime: how long an entry is served after it is stored; nil for no limit.
    public init(
        capacity: Int, maximumCost: Int = .max, lifetime: Duration? = nil, cost: @escaping @Sendable (Value) -> Int = { _ in 1 }
    ) {
        self.lifetime = lifetime
        self.cost = cost
        state = Mutex(State(entries: LRUCache(capacity: capacity, maximumCost: maximumCost)))
    }

    /// The value for `key` while it is fresh at `now`, which counts as a use.
    public func value(for key: Key, now: Duration = .zero) -> Value? {
        state.withLock { $0.fresh(key, now: now) }
    }

    /// The value for `key` while it is fresh at `now`, without counting as a use or removing anything.
    public func peek(_ key: Key, now: Duration = .zero) -> Value? {
        state.withLock { state in
            guard let entry = state.entries.peek(key), entry.isFresh(at: now) else { return nil }
            return entry.value
        }
    }

    /// Stores `value` for `key` as the most recently used, fresh until `expires` (by default `now + lifetime`).
    public func insert(_ value: Value, for key: Key, now: Duration = .zero, expires: Duration? = nil) {
        let entry = Entry(value: value, expires: expires ?? lifetime.map { now + $0 })
        let cost = cost(value)
        state.withLock { $0.entries.insert(entry, for: key, cost: cost) }
    }

    /// Changes the value for `key` in place while it is fresh at `now`, keeping its expiry and its place in the
    /// order; nil when there is no fresh value. `body` runs under the lock: it must be quick and must not reenter.
    @discardableResult
    public func modify<Result: Sendable>(_ key: Key, now: Duration = .zero, _ body: (inout Value) -> Result) -> Result? {
        state.withLock { state in
            guard let entry = state.entries.peek(key), entry.isFresh(at: now) else { return nil }
            return state.entries.modify(key) { body(&$0.value) }
        }
    }

    /// Forgets `key`. A load under way then still answers those already waiting on it, but is not kept, and the
    /// next miss loads again.
    public func removeValue(for key: Key) {
        state.withLock { state in
            state.entries.removeValue(for: key)
            state.loading[key] = nil
            state.generation += 1
        }
    }

    /// Forgets everything. Loads under way then still answer those already waiting on them, but are not kept, and
    /// the next misses load again.
    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.loading.removeAll()
            state.generation += 1
        }
    }

    /// Forgets the entries `shouldRemove` picks; loads under way are still shared with their callers but not kept.
    /// `shouldRemove` runs under the lock: it must be quick and must not reenter.
    public func removeAll(where shouldRemove: (Key, Value) -> Bool) {
        state.withLock { state in
            state.entries.removeAll { key, entry in shouldRemove(key, entry.value) }
            state.generation += 1
        }
    }

    /// Drops the entries expired at `now`.
    public func removeExpired(now: Duration) {
        state.withLock { $0.entries.removeAll { _, entry in !entry.isFresh(at: now) } }
    }

    /// Entries held, fresh or not (loads under way not counted).
    public var count: Int { state.withLock { $0.entries.count } }

    /// The cost of the entries held.
    public var totalCost: Int { state.withLock { $0.entries.totalCost } }

    /// The value for `key` while it is fresh at `now` (and `usable`); otherwise the load under way for it, or a new
    /// one by `load`, whose answer is kept (when `keep` says so) fresh until `now + lifetime`. Callers that miss
    /// the same key while it loads share that one load. A failed load is not kept: everyone waiting on it gets its
    /// error, and the next miss loads again. The load runs in a task of its own, so a caller cancelled while
    /// waiting does not cancel it for the others.
    public func value(
        for key: Key, now: Duration = .zero, usable: (Value) -> Bool = { _ in true }, keep: @escaping @Sendable (Value) -> Bool = { _ in true },
        load: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let expires = lifetime.map { now + $0 }
        let lookup: Lookup = state.withLock { state in
            if let hit = state.fresh(key, now: now), usable(hit) { return .fresh(hit) }
            if let running = state.loading[key] { return .loading(running.task) }
            let generation = state.generation
            state.loadsStarted += 1
            let number = state.loadsStarted
            // The load takes the lock only when it ends, after this one is released, so it always finds itself listed.
            let task = Task { [self, cost] in
                do {
                    let value = try await load()
                    let kept: Int? = keep(value) ? cost(value) : nil
                    self.state.withLock { state in
                        if let kept, state.generation == generation {
                            state.entries.insert(Entry(value: value, expires: expires), for: key, cost: kept)
                        }
                        state.finished(key, number: number)
                    }
                    return value
                } catch {
                    self.state.withLock { $0.finished(key, number: number) }
                    throw error
                }
            }
            state.loading[key] = (number, task)
            return .loading(task)
        }
        switch lookup {
        case .fresh(let value): return value
        case .loading(let task): return try await task.value
        }
    }
}
