import Dispatch
import Foundation
import Storage
import Synchronization
import Testing

/// Two `Database`s on one file behave like two processes: separate connections, separate locks. Holding a lock
/// for a few hundred milliseconds is the situation under test, so these tests block a thread on purpose.
struct WriteContentionTests {
    /// Two handles on one fresh database with a table `t`.
    func twoConnections() throws -> (Database, Database) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("busy-\(UUID().uuidString).sqlite").path
        let first = try Database(path: path)
        try first.migrate(["CREATE TABLE t (id INTEGER PRIMARY KEY, note TEXT)"])
        return (first, try Database(path: path))
    }

    func count(_ db: Database) throws -> Int {
        try db.read { try $0.queryOne("SELECT COUNT(*) AS c FROM t")?.int("c") } ?? -1
    }

    /// Runs `body` on another thread; the returned group is left when it has finished.
    func inBackground(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group, execute: body)
        return group
    }

    @Test("a write waiting on another connection's write lock (held 300 ms) succeeds instead of failing busy")
    func writeWaitsForLock() throws {
        // setup
        let (db, other) = try twoConnections()
        let locked = DispatchSemaphore(value: 0)
        let holder = inBackground {
            try? other.write { connection in
                try connection.execute("INSERT INTO t (id, note) VALUES (1, 'holder')")
                locked.signal()
                usleep(300_000)
            }
        }
        locked.wait()

        // act
        let start = ContinuousClock.now
        try db.write { try $0.execute("INSERT INTO t (id, note) VALUES (2, 'waiter')") }
        let waited = ContinuousClock.now - start
        holder.wait()

        // validate
        #expect(waited >= .milliseconds(200), "the write went ahead while the other connection held the lock")
        #expect(waited < .seconds(4), "the write should go as soon as the lock is released, not at the busy timeout")
        #expect(try count(db) == 2)
    }

    @Test("a transaction that reads before it writes is not failed by a writer that starts in between")
    func readThenWriteIsNotUpgraded() throws {
        // setup
        let (db, other) = try twoConnections()
        let hasRead = DispatchSemaphore(value: 0)
        let order = OrderLog()

        // act: under BEGIN DEFERRED the first transaction would hold only a read snapshot after its SELECT, the
        // second would commit, and the first one's INSERT would fail with SQLITE_BUSY whatever the busy timeout.
        let writer = inBackground {
            hasRead.wait()
            do {
                try other.write { try $0.execute("INSERT INTO t (id, note) VALUES (2, 'second')") }
                order.append("second")
            } catch {
                order.append("second failed: \(error)")
            }
        }
        try db.write { connection in
            let seen = try connection.queryOne("SELECT COUNT(*) AS c FROM t")?.int("c") ?? -1
            hasRead.signal()
            usleep(150_000)  // time for the other writer to try
            try connection.execute("INSERT INTO t (id, note) VALUES (1, ?)", ["first saw \(seen)"])
        }
        order.append("first")
        writer.wait()

        // validate
        #expect(try count(db) == 2)
        let notes = try db.read { try $0.query("SELECT note FROM t ORDER BY id").compactMap { $0.string("note") } }
        #expect(notes == ["first saw 0", "second"])
        #expect(order.entries.last == "second", "the second writer waits for the first one's commit")
    }

    @Test("in WAL mode a reader is not blocked by an open write transaction and sees the last commit")
    func readerNotBlockedByWriter() throws {
        // setup
        let (db, other) = try twoConnections()
        try db.write { try $0.execute("INSERT INTO t (id, note) VALUES (1, 'committed')") }
        let locked = DispatchSemaphore(value: 0)
        let holder = inBackground {
            try? other.write { connection in
                try connection.execute("INSERT INTO t (id, note) VALUES (2, 'pending')")
                locked.signal()
                usleep(300_000)
            }
        }
        locked.wait()

        // act
        let start = ContinuousClock.now
        let seenDuringWrite = try count(db)
        let readTime = ContinuousClock.now - start
        holder.wait()

        // validate
        #expect(try db.read { try $0.queryOne("PRAGMA journal_mode")?.string("journal_mode") } == "wal")
        #expect(readTime < .milliseconds(150), "the read waited for the writer")
        #expect(seenDuringWrite == 1, "a reader sees committed rows only")
        #expect(try count(db) == 2)
    }
}

/// What happened in which order, across threads.
final class OrderLog: Sendable {
    private let storage = Mutex<[String]>([])

    func append(_ entry: String) { storage.withLock { $0.append(entry) } }
    var entries: [String] { storage.withLock { $0 } }
}
