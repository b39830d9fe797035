import Foundation
import Storage
import Testing

struct SchemaVersionTests {
    let steps = [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
        "ALTER TABLE t ADD COLUMN age INTEGER",
        "CREATE INDEX t_by_age ON t(age)",
    ]

    func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).sqlite").path
    }

    @Test("a database made by an older schema migrates forward to the binary's version and keeps its rows")
    func olderMigratesForward() throws {
        let file = path()
        do {
            let old = try Database(path: file)
            #expect(try old.migrate(Array(steps.prefix(1))) == Database.Migration(from: 0, to: 1))
            try old.write { try $0.execute("INSERT INTO t (name) VALUES ('kept')") }
        }
        #expect(try Database.schemaVersion(ofFileAt: file) == 1)
        let new = try Database(path: file)
        let migration = try new.migrate(steps)
        #expect(migration == Database.Migration(from: 1, to: 3))
        #expect(migration.changed)
        #expect(try new.schemaVersion == 3)
        let row = try #require(try new.read { try $0.queryOne("SELECT name, age FROM t") })
        #expect(row.string("name") == "kept")
        #expect(row["age"] == .null)
        #expect(try new.migrate(steps).changed == false)
    }

    @Test("a database from a newer binary is refused with the message the issue gives, and left untouched")
    func futureIsRefused() throws {
        let file = path()
        do {
            let future = try Database(path: file)
            try future.migrate(steps + ["CREATE TABLE from_the_future (x)", "ALTER TABLE t ADD COLUMN z"])
        }
        let database = try Database(path: file)
        do {
            try database.migrate(steps)
            Issue.record("a newer database was accepted")
        } catch let error as SchemaError {
            #expect(error.found == 5)
            #expect(error.known == 3)
            #expect(error.description.hasPrefix("this data was written by a newer grain-stories; install that version or restore a backup"))
            #expect(error.description.contains(file))
        }
        #expect(try database.schemaVersion == 5)
        #expect(try database.read { try $0.queryOne("SELECT COUNT(*) AS n FROM from_the_future")?.int("n") } == 0)
    }

    @Test("a failing step rolls back every step of the migration, the version included")
    func failingStepRollsBackAll() throws {
        let file = path()
        let database = try Database(path: file)
        try database.migrate(Array(steps.prefix(1)))
        let broken = [steps[0], steps[1], "CREATE INDEX nope ON missing_table(x)"]
        #expect(throws: StorageError.self) { try database.migrate(broken) }
        #expect(try database.schemaVersion == 1)
        // Step 2's column was rolled back with the failing step 3.
        let columns = try database.read { try $0.query("PRAGMA table_info(t)") }.compactMap { $0.string("name") }
        #expect(columns == ["id", "name"])
    }

    @Test("the version of a file that does not exist is nil, and reading it creates nothing")
    func missingFile() throws {
        let file = path()
        #expect(try Database.schemaVersion(ofFileAt: file) == nil)
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
