import Backups
import Foundation
import Storage
import TestSupport
import Testing

@testable import Backend
@testable import Server

/// Safe upgrades: a start on data from an older schema backs it up before migrating, and a start on data from a
/// newer grain-stories refuses, touching nothing.
@Suite struct SchemaUpgradeTests {
    func configuration(_ data: String) -> ServeConfiguration {
        var configuration = ServeConfiguration()
        configuration.port = 0
        configuration.dataDirectory = data
        configuration.keyDirectory = data + "-keys"
        configuration.backupDirectory = data + "-backups"
        configuration.templatesDirectory = repositoryRoot.appendingPathComponent("Templates").path
        configuration.publicDirectory = repositoryRoot.appendingPathComponent("Public").path
        configuration.geocoder = .none
        configuration.fastPasswordHashing = true
        return configuration
    }

    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    }

    @Test("a start on a database made by an older schema backs the data up first, then migrates it in place")
    func olderSchemaIsBackedUpThenMigrated() async throws {
        // setup: backend.sqlite as the previous release left it (every migration but the last), with an account
        let data = temporary("older")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let older = Array(Schema.migrations.dropLast())
        do {
            let database = try Database(path: data + "/backend.sqlite")
            try database.migrate(older)
            try database.write {
                try $0.execute(
                    "INSERT INTO accounts (did, handle, created_at) VALUES ('did:plc:olderolderolderolderolde', 'maya.home.test', '2026-01-01T00:00:00.000Z')"
                )
            }
        }

        // act
        let app = try Application(configuration: configuration(data))

        // validate: a backup of the old version exists and verifies, and the database is migrated with its rows
        let folder = try #require(app.upgrade.backup, "a backup before the migration")
        #expect(folder.hasPrefix(data + "-backups/pre-upgrade-"))
        #expect(app.upgrade.older["backend.sqlite"] == older.count...Schema.migrations.count)
        let manifest = try Backup.verify(folder)
        #expect(manifest.databases["backend.sqlite"]?.schemaVersion == older.count)
        #expect(manifest.databases["backend.sqlite"]?.rows["accounts"] == 1)
        #expect(try Database.schemaVersion(ofFileAt: data + "/backend.sqlite") == Schema.migrations.count)
        #expect(try app.backend?.store.accounts.account("maya.home.test")?.handle == "maya.home.test")
    }

    @Test("only the newest two pre-upgrade backups are kept, and nightly backups beside them are left alone")
    func preUpgradeBackupsAreRotated() throws {
        // setup: an older backend.sqlite (prepare backs up but does not migrate, so each call finds it older), and a
        // nightly backup in the same folder
        let data = temporary("rotated")
        let backups = data + "-backups"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        do {
            let database = try Database(path: data + "/backend.sqlite")
            try database.migrate(Array(Schema.migrations.dropLast()))
        }
        let nightly = try BackupRotation(directory: backups, keep: 7).run(
            dataDirectory: data, binaryVersion: "1", now: Date(timeIntervalSince1970: 1_800_000_000)
        ).folder

        // act: three upgrades, a day apart
        var folders: [String] = []
        for day in 1...3 {
            let now = Date(timeIntervalSince1970: 1_800_000_000 + Double(day) * 86400)
            folders.append(try #require(try SchemaUpgrade.prepare(dataDirectory: data, backupDirectory: backups, now: now).backup))
        }

        // validate
        let names = try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
        #expect(names.filter { $0.hasPrefix("pre-upgrade-") } == folders.dropFirst().map { ($0 as NSString).lastPathComponent })
        #expect(!FileManager.default.fileExists(atPath: folders[0]))
        #expect(FileManager.default.fileExists(atPath: nightly), "a nightly backup is not a pre-upgrade one")
        try Backup.verify(folders[2])
    }

    @Test("a start on up-to-date data makes no backup")
    func currentSchemaNeedsNoBackup() async throws {
        let data = temporary("current")
        _ = try Application(configuration: configuration(data))
        let again = try Application(configuration: configuration(data))
        #expect(again.upgrade == SchemaUpgrade.Outcome())
        #expect(!FileManager.default.fileExists(atPath: data + "-backups"))
    }

    @Test("a database from a newer grain-stories is refused with the issue's message, and left as it was")
    func futureSchemaIsRefused() async throws {
        // setup: backend.sqlite with one migration more than this binary knows
        let data = temporary("future")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        do {
            let database = try Database(path: data + "/backend.sqlite")
            try database.migrate(Schema.migrations + ["CREATE TABLE from_the_future (x)"])
        }

        // act
        var refusal: SchemaError?
        do { _ = try Application(configuration: configuration(data)) } catch let error as SchemaError { refusal = error }

        // validate
        let error = try #require(refusal)
        #expect(error.description.hasPrefix("this data was written by a newer grain-stories; install that version or restore a backup"))
        #expect(error.found == Schema.migrations.count + 1)
        #expect(try Database.schemaVersion(ofFileAt: data + "/backend.sqlite") == Schema.migrations.count + 1)
        #expect(!FileManager.default.fileExists(atPath: data + "/front.sqlite"), "nothing else was created")
        #expect(!FileManager.default.fileExists(atPath: data + "-backups"))
    }

    @Test("the executable refuses newer data with the message, and restore refuses a newer backup")
    func futureSchemaFromTheCommandLine() throws {
        // setup
        let data = temporary("future-cli")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        do {
            let database = try Database(path: data + "/backend.sqlite")
            try database.migrate(Schema.migrations + ["CREATE TABLE from_the_future (x)"])
        }
        let backup = temporary("future-backup")
        try Backup.create(dataDirectory: data, to: backup, binaryVersion: "99.0.0")

        // act
        let serve = try ServerProcess.run(["serve", "--port", "0", "--data", data, "--key-dir", data + "-keys"])
        let restore = try ServerProcess.run(["restore", "--from", backup, "--data", temporary("restore-target")])

        // validate
        #expect(serve.status == 1)
        #expect(serve.output.contains("this data was written by a newer grain-stories; install that version or restore a backup"), "\(serve.output)")
        #expect(restore.status == 1)
        #expect(restore.output.contains("this data was written by a newer grain-stories"), "\(restore.output)")
    }
}
