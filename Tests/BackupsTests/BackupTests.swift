import Backups
import Foundation
import Storage
import TestSupport
import Testing

/// A small data directory: two databases with rows, a key id, a few blob files, and a sealing key beside them that
/// must never travel.
struct SampleData {
    let root = TemporaryDirectory("backup")
    var data: String { root.path + "/data" }
    let records: Database
    let sessions: Database

    init(blobs: Int = 5) throws {
        try FileManager.default.createDirectory(atPath: root.path + "/data/blobs", withIntermediateDirectories: true)
        records = try Database(path: root.path + "/data/backend.sqlite")
        try records.migrate(["CREATE TABLE records (id INTEGER PRIMARY KEY, body TEXT)", "CREATE TABLE blobs (cid TEXT)"])
        sessions = try Database(path: root.path + "/data/front.sqlite")
        try sessions.migrate(["CREATE TABLE sessions (id TEXT PRIMARY KEY)"])
        for i in 0..<20 { try records.write { try $0.execute("INSERT INTO records (body) VALUES (?)", ["story \(i)"]) } }
        try sessions.write { try $0.execute("INSERT INTO sessions VALUES ('abc')") }
        for i in 0..<blobs {
            #expect(FileManager.default.createFile(atPath: root.path + "/data/blobs/blob\(i)", contents: Data(repeating: UInt8(i), count: 1000 + i)))
        }
        #expect(FileManager.default.createFile(atPath: root.path + "/data/key-id", contents: Data("abc-123\n".utf8)))
        #expect(FileManager.default.createFile(atPath: root.path + "/data/secret.key", contents: Data(repeating: 7, count: 32)))
    }
}

struct BackupTests {
    @Test("a backup holds snapshots, the key id and every blob, with a manifest of versions, counts and checksums, and never the key")
    func backupContents() throws {
        let sample = try SampleData()
        defer { sample.root.remove() }
        let destination = sample.root.path + "/backup"
        let manifest = try Backup.create(dataDirectory: sample.data, to: destination, binaryVersion: "9.9.9")
        #expect(manifest.format == 1)
        #expect(manifest.binaryVersion == "9.9.9")
        #expect(manifest.databases["backend.sqlite"]?.schemaVersion == 2)
        #expect(manifest.databases["backend.sqlite"]?.rows == ["records": 20, "blobs": 0])
        #expect(manifest.databases["front.sqlite"]?.rows == ["sessions": 1])
        #expect(manifest.databases["auth.sqlite"] == nil)
        #expect(manifest.blobCount == 5)
        let paths = Set(manifest.files.map(\.path))
        #expect(paths.isSuperset(of: ["backend.sqlite", "front.sqlite", "key-id", "blobs/blob0", "blobs/blob4"]))
        #expect(!FileManager.default.fileExists(atPath: destination + "/secret.key"))
        #expect(!paths.contains { $0.hasSuffix(".key") })
        let read = try BackupManifest.read(from: destination)
        #expect(read == manifest)
        let blob = try #require(manifest.files.first { $0.path == "blobs/blob3" })
        #expect(blob.size == 1003)
        // SHA-256 of 1003 bytes of 0x03, from Python's hashlib.
        #expect(blob.sha256 == "b57bb2d077f280bbbf17e686fe72a7b01ef8b7cad2b801b14379ed74e89146e4")
        try Backup.verify(destination)
    }

    @Test("a backup refuses a destination that holds something, and leaves no partial folder after a failure")
    func destinationMustBeEmpty() throws {
        let sample = try SampleData()
        defer { sample.root.remove() }
        let destination = sample.root.path + "/used"
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: destination + "/something", contents: Data()))
        #expect(throws: BackupError.self) { try Backup.create(dataDirectory: sample.data, to: destination, binaryVersion: "1") }
        let empty = sample.root.path + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try Backup.create(dataDirectory: sample.data, to: empty, binaryVersion: "1")
        #expect(FileManager.default.fileExists(atPath: empty + "/manifest.json"))
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: sample.root.path)).contains { $0.contains(".partial-") })
    }

    @Test("verify finds a changed byte, a missing blob, an extra file and a key put into the backup")
    func verifyFindsDamage() throws {
        let sample = try SampleData()
        defer { sample.root.remove() }
        let destination = sample.root.path + "/backup"
        try Backup.create(dataDirectory: sample.data, to: destination, binaryVersion: "1")
        // Blobs are hard links to the live files: replace rather than edit in place, as damage on another disk would.
        try FileManager.default.removeItem(atPath: destination + "/blobs/blob1")
        #expect(FileManager.default.createFile(atPath: destination + "/blobs/blob1", contents: Data(repeating: 9, count: 1001)))
        try FileManager.default.removeItem(atPath: destination + "/blobs/blob2")
        #expect(FileManager.default.createFile(atPath: destination + "/stray.txt", contents: Data("x".utf8)))
        #expect(FileManager.default.createFile(atPath: destination + "/secret.key", contents: Data(repeating: 1, count: 32)))
        do {
            try Backup.verify(destination)
            Issue.record("a damaged backup passed")
        } catch let error as BackupError {
            #expect(error.code == .damaged)
            #expect(error.description.contains("blobs/blob1 does not match its checksum"))
            #expect(error.description.contains("blobs/blob2 is missing"))
            #expect(error.description.contains("stray.txt is not in the manifest"))
            #expect(error.description.contains("secret.key looks like a sealing key"))
        }
        // The live blob was not touched by any of this.
        #expect(FileManager.default.contents(atPath: sample.data + "/blobs/blob1") == Data(repeating: 1, count: 1001))
    }

    @Test("a linked blob named by the CID of its bytes is recorded by the name's SHA-256; verify reads it against that")
    func contentNamedBlobs() throws {
        let sample = try SampleData()
        defer { sample.root.remove() }
        // CIDv1, raw codec, SHA-256 of 1000 bytes of 0x05 (from Python's hashlib and base64), and a variant beside it.
        let cid = "bafkreiaqsrhnkfxrxma5ayhrsm5ybntys6mdowfeh5ocqfaeyez7bxd7ou"
        let digest = "10944ed516f1bb01d060f1933b80b67897983758a43f5c281404c133f0dc7f75"
        #expect(FileManager.default.createFile(atPath: sample.data + "/blobs/" + cid, contents: Data(repeating: 5, count: 1000)))
        #expect(FileManager.default.createFile(atPath: sample.data + "/blobs/" + cid + ".thumb.jpg", contents: Data(repeating: 6, count: 10)))
        let destination = sample.root.path + "/backup"
        let manifest = try Backup.create(dataDirectory: sample.data, to: destination, binaryVersion: "1")
        let original = manifest.files.first { $0.path == "blobs/" + cid }
        #expect(original?.size == 1000 && original?.sha256 == digest)
        // SHA-256 of 10 bytes of 0x06, read from the file: a variant's name is no digest.
        #expect(
            manifest.files.first { $0.path == "blobs/" + cid + ".thumb.jpg" }?.sha256
                == "f0681f475a7ad9164211bdb2d1708f63c71be899cac214f4425f85c7481b747a")
        try Backup.verify(destination)
        // A blob file whose bytes no longer match its name: verify says so.
        try FileManager.default.removeItem(atPath: destination + "/blobs/" + cid)
        #expect(FileManager.default.createFile(atPath: destination + "/blobs/" + cid, contents: Data(repeating: 7, count: 1000)))
        #expect(throws: BackupError.self) { try Backup.verify(destination) }
    }

    @Test("a manifest naming a path outside the backup is refused")
    func hostileManifest() throws {
        let sample = try SampleData()
        defer { sample.root.remove() }
        let destination = sample.root.path + "/backup"
        try Backup.create(dataDirectory: sample.data, to: destination, binaryVersion: "1")
        var text = try String(contentsOfFile: destination + "/manifest.json", encoding: .utf8)
        text = text.replacingOccurrences(of: "\"blobs/blob0\"", with: "\"../../etc/passwd\"")
        try text.write(toFile: destination + "/manifest.json", atomically: true, encoding: .utf8)
        #expect(throws: BackupError.self) { try Backup.verify(destination) }
        #expect(throws: BackupError.self) {
            try Backup.restore(from: destination, to: sample.root.path + "/restored", knownSchemaVersions: [:])
        }
        #expect(!FileManager.default.fileExists(atPath: sample.root.path + "/restored"))
    }

    @Test("a restore copies every file into an empty folder, refuses a non-empty one, and refuses a newer schema")
    func restore() throws {
        let sample = try SampleData()
        defer { sample.root.remove() }
        let backup = sample.root.path + "/backup"
        try Backup.create(dataDirectory: sample.data, to: backup, binaryVersion: "1")
        let target = sample.root.path + "/restored"
        let manifest = try Backup.restore(from: backup, to: target, knownSchemaVersions: ["backend.sqlite": 2, "front.sqlite": 1])
        #expect(manifest.blobCount == 5)
        let restored = try Connection.readOnly(target + "/backend.sqlite")
        #expect(try restored.rowCounts()["records"] == 20)
        #expect(FileManager.default.contents(atPath: target + "/blobs/blob4") == Data(repeating: 4, count: 1004))
        #expect(FileManager.default.contents(atPath: target + "/key-id") == Data("abc-123\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: target + "/secret.key"))
        // The restored database is a copy, not a link into the backup: writing to it leaves the backup sound.
        let reopened = try Database(path: target + "/backend.sqlite")
        try reopened.write { try $0.execute("DELETE FROM records") }
        try Backup.verify(backup)

        do {
            try Backup.restore(from: backup, to: target, knownSchemaVersions: [:])
            Issue.record("restored over existing data")
        } catch let error as BackupError {
            #expect(error.code == .notEmpty)
        }
        do {
            try Backup.restore(from: backup, to: sample.root.path + "/older", knownSchemaVersions: ["backend.sqlite": 1])
            Issue.record("an older binary restored a newer schema")
        } catch let error as BackupError {
            #expect(error.code == .newerSchema)
            #expect(error.description.hasPrefix("this data was written by a newer grain-stories; install that version or restore a backup"))
        }
        #expect(!FileManager.default.fileExists(atPath: sample.root.path + "/older"))
    }

    @Test("removals wait for no backup: while one holds the lock they are skipped, afterwards they run")
    func lockDefersRemovals() throws {
        let sample = try SampleData()
        defer { sample.root.remove() }
        do {
            let held = try BackupLock.holdForBackup(dataDirectory: sample.data)
            #expect(try BackupLock.unlessBackingUp(dataDirectory: sample.data) { 1 } == nil)
            // A second backup at the same time is fine.
            let second = try BackupLock.holdForBackup(dataDirectory: sample.data)
            #expect(try BackupLock.unlessBackingUp(dataDirectory: sample.data) { 1 } == nil)
            withExtendedLifetime((held, second)) {}
        }
        #expect(try BackupLock.unlessBackingUp(dataDirectory: sample.data) { 1 } == 1)
    }
}
