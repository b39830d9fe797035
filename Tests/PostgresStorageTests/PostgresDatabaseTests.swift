import Foundation
import PostgresStorage
import Storage
import TestSupport
import Testing

/// libpq through PostgresStorage against a real server: a throwaway cluster per suite run.
@Suite(.serialized)
struct PostgresDatabaseTests {
    @Test("values round-trip through parameters: text with quotes, integers at the edges, bytes with zeros, null")
    func parametersRoundTrip() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let database = try PostgresDatabase(url: cluster.url())
        try database.execute("CREATE TABLE t (s TEXT, n BIGINT, b BYTEA, f DOUBLE PRECISION, z TEXT)")
        let hostile = "'); DROP TABLE t; --"
        let bytes: [UInt8] = [0, 1, 0xFF, 0x5C, 0x78, 0]
        let changed = try database.execute(
            "INSERT INTO t (s, n, b, f, z) VALUES ($1, $2, $3, $4, $5)", [hostile, Int64.min, bytes, 1.5, String?.none])
        #expect(changed == 1)
        let row = try #require(try database.query("SELECT * FROM t WHERE s = $1", [hostile]).first)
        #expect(row.string("s") == hostile)
        #expect(row["n"] == .integer(Int64.min))
        #expect(row.bytes("b") == bytes)
        #expect(row["f"] == .real(1.5))
        #expect(row["z"] == .null)
        #expect(try database.query("SELECT count(*) AS c FROM t").first?.int("c") == 1)
    }

    @Test("a transaction that throws leaves nothing behind; one that returns commits")
    func transactionsRollBack() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let database = try PostgresDatabase(url: cluster.url())
        try database.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try database.transaction { connection in
                try connection.execute("INSERT INTO t VALUES ($1)", ["a"])
                throw Abort()
            }
        }
        _ = try database.transaction { try $0.execute("INSERT INTO t VALUES ($1)", ["b"]) }
        #expect(try database.query("SELECT k FROM t").map { $0.string("k") } == ["b"])
        let duplicate = #expect(throws: PostgresError.self) { try database.execute("INSERT INTO t VALUES ($1)", ["b"]) }
        #expect(duplicate?.isUniqueViolation == true)
        #expect(duplicate?.sqlState == "23505")
    }

    @Test("a wrong URL fails at start with a message naming --sessions")
    func unreachableServer() throws {
        let error = #expect(throws: PostgresError.self) {
            _ = try PostgresDatabase(url: "postgresql:///none?host=/nonexistent-socket-dir")
        }
        #expect(error?.code == .connect)
        #expect(error?.description.contains("--sessions") == true)
    }

    @Test("the advisory lock excludes a second holder on another connection until the first releases it")
    func advisoryLockExcludes() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        // Two databases objects: two pools, as two processes would have.
        let first = try PostgresDatabase(url: cluster.url())
        let second = try PostgresDatabase(url: cluster.url())
        let inside = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for database in [first, second, first, second] {
                group.addTask {
                    try await database.withAdvisoryLock(42) {
                        let now = inside.enter()
                        #expect(now == 1, "two holders of one advisory lock at once")
                        try await Task.sleep(for: .milliseconds(50))
                        inside.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.maximum == 1)
        #expect(inside.entries == 4)
        // Released: a plain try from psql gets it.
        #expect(try cluster.psql("SELECT pg_try_advisory_lock(42)").trimmingCharacters(in: .whitespacesAndNewlines) == "t")
    }

    @Test("a lock held elsewhere past the timeout fails with lockTimeout instead of waiting forever")
    func advisoryLockTimesOut() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let holder = try PostgresDatabase(url: cluster.url())
        let waiter = try PostgresDatabase(url: cluster.url())
        try await holder.withAdvisoryLock(7) {
            let error = await #expect(throws: PostgresError.self) {
                try await waiter.withAdvisoryLock(7, timeout: .milliseconds(200)) {}
            }
            #expect(error?.code == .lockTimeout)
        }
    }

    @Test("prepareSchema run by several at once creates the tables once, without errors")
    func schemaOnce() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let url = cluster.url()
        let schema = ["CREATE TABLE IF NOT EXISTS s (k TEXT PRIMARY KEY)", "CREATE INDEX IF NOT EXISTS s_k ON s (k)"]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { try PostgresDatabase(url: url).prepareSchema(schema, lockKey: 99) }
            }
            try await group.waitForAll()
        }
        #expect(try cluster.psql("SELECT count(*) FROM pg_tables WHERE tablename = 's'").contains("1"))
    }

    @Test("after the server restarts, the next call reconnects instead of failing forever")
    func reconnectsAfterRestart() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let database = try PostgresDatabase(url: cluster.url())
        #expect(try database.query("SELECT 1 AS one").first?.int("one") == 1)
        try cluster.restart()
        // The pooled connection is dead: the first call may fail, and the one after it works.
        _ = try? database.query("SELECT 1 AS one")
        #expect(try database.query("SELECT 2 AS two").first?.int("two") == 2)
    }
}

/// How many tasks are inside a section at once.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private(set) var maximum = 0
    private(set) var entries = 0

    func enter() -> Int {
        lock.withLock {
            current += 1
            entries += 1
            maximum = max(maximum, current)
            return current
        }
    }

    func leave() { lock.withLock { current -= 1 } }
}
