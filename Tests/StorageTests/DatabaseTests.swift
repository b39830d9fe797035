import Foundation
import Storage
import Testing

struct DatabaseTests {
    func temporaryDatabase() throws -> Database {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("db-\(UUID().uuidString).sqlite").path
        return try Database(path: path)
    }

    @Test("migrations run once each and record the schema version")
    func migrationsRunOnce() throws {
        let db = try temporaryDatabase()
        let steps = ["CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)", "ALTER TABLE t ADD COLUMN age INTEGER"]
        try db.migrate(steps)
        try db.migrate(steps)
        let version = try db.read { try $0.queryOne("PRAGMA user_version")?.int("user_version") }
        #expect(version == 2)
    }

    @Test("values of every type round-trip through bind and column")
    func valuesRoundTrip() throws {
        let db = try temporaryDatabase()
        try db.migrate(["CREATE TABLE v (i INTEGER, r REAL, t TEXT, b BLOB, n TEXT)"])
        try db.write { try $0.execute("INSERT INTO v VALUES (?, ?, ?, ?, ?)", [Int64.max, 2.5, "héllo ✓", [UInt8]([0, 1, 255]), String?.none]) }
        let row = try #require(try db.read { try $0.queryOne("SELECT * FROM v") })
        #expect(row["i"] == .integer(Int64.max))
        #expect(row["r"] == .real(2.5))
        #expect(row.string("t") == "héllo ✓")
        #expect(row.bytes("b") == [0, 1, 255])
        #expect(row["n"] == .null)
    }

    @Test("a write that throws rolls back everything it did")
    func failedWriteRollsBack() throws {
        let db = try temporaryDatabase()
        try db.migrate(["CREATE TABLE t (id INTEGER PRIMARY KEY)"])
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.write { connection in
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        let count = try db.read { try $0.queryOne("SELECT COUNT(*) AS c FROM t")?.int("c") }
        #expect(count == 0)
    }

    @Test("a unique violation is reported as a constraint error")
    func constraintViolation() throws {
        let db = try temporaryDatabase()
        try db.migrate(["CREATE TABLE t (id INTEGER PRIMARY KEY)"])
        try db.write { try $0.execute("INSERT INTO t VALUES (1)") }
        do {
            try db.write { try $0.execute("INSERT INTO t VALUES (1)") }
            Issue.record("expected a constraint error")
        } catch let error as StorageError {
            #expect(error.isConstraintViolation)
        }
    }

    @Test("concurrent readers and writers all see committed rows")
    func concurrentAccess() async throws {
        let db = try temporaryDatabase()
        try db.migrate(["CREATE TABLE t (id INTEGER PRIMARY KEY)"])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<200 {
                group.addTask {
                    try db.write { try $0.execute("INSERT INTO t VALUES (?)", [i]) }
                    _ = try db.read { try $0.query("SELECT id FROM t") }
                }
            }
            try await group.waitForAll()
        }
        #expect(try db.read { try $0.queryOne("SELECT COUNT(*) AS c FROM t")?.int("c") } == 200)
    }
}
