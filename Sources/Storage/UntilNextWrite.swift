import Caching
import Synchronization

/// Values read from one database, kept in memory until that database's next write: whatever a write could change
/// (a photo hidden, a screen removed) is read again after it, so no write path can forget to invalidate them, and
/// between writes each key costs one read. Bounded: past `capacity` keys the least recently used goes (an
/// ``LRUCache``, emptied when the commit count moves).
///
/// Read ``commits`` before reading the database and pass it to ``remember(_:for:readAt:)``: a value read while a
/// write committed is not kept.
public final class UntilNextWrite<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State: Sendable {
        var commits: UInt64
        var values: LRUCache<Key, Value>

        init(commits: UInt64 = 0, capacity: Int) {
            self.commits = commits
            values = LRUCache(capacity: capacity)
        }
    }

    private let database: Database
    private let capacity: Int
    private let state: Mutex<State>

    public init(database: Database, capacity: Int) {
        self.database = database
        self.capacity = capacity
        state = Mutex(State(capacity: capacity))
    }

    /// The database's commit count now: read it before the read whose result is remembered.
    public var commits: UInt64 { database.commitCount }

    /// The remembered value, unless the database was written since it was read.
    public func value(for key: Key) -> Value? {
        let commits = database.commitCount
        return state.withLock { state in
            guard state.commits == commits else {
                state = State(commits: commits, capacity: capacity)
                return nil
            }
            return state.values.value(for: key)
        }
    }

    /// Keeps `value`, read when the commit count was `commits`, unless a write came since.
    public func remember(_ value: Value, for key: Key, readAt commits: UInt64) {
        state.withLock { state in
            guard database.commitCount == commits else { return }
            if state.commits != commits { state = State(commits: commits, capacity: capacity) }
            state.values.insert(value, for: key)
        }
    }
}
