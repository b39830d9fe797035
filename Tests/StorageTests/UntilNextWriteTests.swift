import Foundation
import Testing

@testable import Storage

struct UntilNextWriteTests {
    static func database() throws -> Database {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("until-\(UUID().uuidString).sqlite").path
        let database = try Database(path: path)
        _ = try database.write { try $0.execute("CREATE TABLE t (v TEXT)") }
        return database
    }

    @Test("a value is kept until the database's next write, then read again; a failed write changes nothing")
    func keptUntilNextWrite() throws {
        let database = try Self.database()
        let cache = UntilNextWrite<String, String>(database: database, capacity: 8)
        cache.remember("a", for: "k", readAt: cache.commits)
        #expect(cache.value(for: "k") == "a")
        _ = try? database.write { _ in throw CancellationError() }
        #expect(cache.value(for: "k") == "a", "a rolled-back write commits nothing")
        _ = try database.write { try $0.execute("INSERT INTO t VALUES ('x')") }
        #expect(cache.value(for: "k") == nil)
        cache.remember("b", for: "k", readAt: cache.commits)
        #expect(cache.value(for: "k") == "b")
    }

    @Test("a value read before a write committed is not kept")
    func staleReadIsDropped() throws {
        let database = try Self.database()
        let cache = UntilNextWrite<String, String>(database: database, capacity: 8)
        let before = cache.commits
        _ = try database.write { try $0.execute("INSERT INTO t VALUES ('x')") }
        cache.remember("old", for: "k", readAt: before)
        #expect(cache.value(for: "k") == nil)
    }

    @Test("past its capacity the least recently used goes")
    func bounded() throws {
        let database = try Self.database()
        let cache = UntilNextWrite<Int, Int>(database: database, capacity: 4)
        for key in 0..<4 { cache.remember(key, for: key, readAt: cache.commits) }
        #expect((0..<4).allSatisfy { cache.value(for: $0) == $0 })
        cache.remember(4, for: 4, readAt: cache.commits)
        #expect(cache.value(for: 0) == nil && cache.value(for: 4) == 4)
    }
}
