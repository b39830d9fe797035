import Foundation
import Storage
import Synchronization
import Testing

struct SnapshotTests {
    func path(_ name: String = "db") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite").path
    }

    @Test("a snapshot taken while another connection keeps writing holds one committed state: every pair whole")
    func snapshotUnderWrites() async throws {
        let source = path()
        let database = try Database(path: source)
        try database.migrate(["CREATE TABLE pairs (n INTEGER NOT NULL, side TEXT NOT NULL)"])
        let writing = Atomic<Bool>(true)
        let written = Atomic<Int>(0)
        // Each transaction writes two rows; a torn copy would show an odd count or a lone half.
        let writer = Task.detached {
            var n = 0
            while writing.load(ordering: .relaxed) {
                try database.write { connection in
                    try connection.execute("INSERT INTO pairs VALUES (?, 'left')", [n])
                    try connection.execute("INSERT INTO pairs VALUES (?, 'right')", [n])
                }
                n += 1
                written.store(n, ordering: .relaxed)
            }
        }
        while written.load(ordering: .relaxed) < 200 { try await Task.sleep(for: .milliseconds(5)) }
        var copies: [String] = []
        for _ in 0..<3 {
            let copy = path("copy")
            try Database.snapshot(ofFileAt: source, to: copy)
            copies.append(copy)
        }
        writing.store(false, ordering: .relaxed)
        try await writer.value
        var previous = 0
        for copy in copies {
            #expect(!FileManager.default.fileExists(atPath: copy + "-wal"))
            let connection = try Connection.readOnly(copy)
            #expect(try connection.integrityProblems() == [])
            let count = try connection.rowCounts()["pairs"] ?? -1
            #expect(count > 0 && count % 2 == 0)
            #expect(count >= previous)
            previous = count
            let lone = try connection.queryOne("SELECT COUNT(*) AS n FROM (SELECT n FROM pairs GROUP BY n HAVING COUNT(*) != 2)")
            #expect(lone?.int("n") == 0)
            #expect(try connection.schemaVersion() == 1)
        }
    }

    @Test("a snapshot refuses to overwrite a file, and a missing source leaves nothing behind")
    func snapshotRefusals() throws {
        let source = path()
        try Database(path: source).migrate(["CREATE TABLE t (x)"])
        let existing = path("existing")
        #expect(FileManager.default.createFile(atPath: existing, contents: Data("keep".utf8)))
        #expect(throws: StorageError.self) { try Database.snapshot(ofFileAt: source, to: existing) }
        #expect(FileManager.default.contents(atPath: existing) == Data("keep".utf8))
        let target = path("target")
        #expect(throws: StorageError.self) { try Database.snapshot(ofFileAt: path("missing"), to: target) }
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("a checkpoint merges the WAL into the database file and truncates it to nothing")
    func checkpointTruncates() throws {
        let source = path()
        let database = try Database(path: source)
        try database.migrate(["CREATE TABLE t (x TEXT)"])
        for i in 0..<50 { try database.write { try $0.execute("INSERT INTO t VALUES (?)", ["row \(i)"]) } }
        let before = try FileManager.default.attributesOfItem(atPath: source + "-wal")[.size] as? Int ?? 0
        #expect(before > 0)
        #expect(try database.checkpoint())
        let after = try FileManager.default.attributesOfItem(atPath: source + "-wal")[.size] as? Int ?? -1
        #expect(after == 0)
        // The main file alone now holds every row: a copy of just it (no WAL) reads them all.
        let copy = path("bare")
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        #expect(try Connection.readOnly(copy).rowCounts()["t"] == 50)
    }

    @Test("integrity_check reports a damaged file")
    func integrityFindsDamage() throws {
        let source = path()
        let database = try Database(path: source)
        try database.migrate(["CREATE TABLE t (x TEXT)", "CREATE INDEX t_x ON t(x)"])
        for i in 0..<2000 { try database.write { try $0.execute("INSERT INTO t VALUES (?)", [String(repeating: "v\(i)", count: 20)]) } }
        try database.checkpoint()
        let copy = path("damaged")
        try Database.snapshot(ofFileAt: source, to: copy)
        // Overwrite a page in the middle of the file with garbage.
        let handle = try #require(FileHandle(forUpdatingAtPath: copy))
        try handle.seek(toOffset: 4096 * 5)
        handle.write(Data(repeating: 0xA5, count: 4096))
        try handle.close()
        let problems = (try? Connection.readOnly(copy).integrityProblems()) ?? ["unreadable"]
        #expect(!problems.isEmpty)
    }
}
