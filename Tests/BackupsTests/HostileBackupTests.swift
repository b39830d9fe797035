import Backups
import Foundation
import Storage
import TestSupport
import Testing

/// Backups changed after they were made, by someone who wants a restore to read what it should not: links out of the
/// folder, table names that would break out of their quotes.
struct HostileBackupTests {
    /// Makes a backup of `sample` and returns its folder.
    func backup(of sample: SampleData) throws -> String {
        let folder = sample.root.path + "/backup"
        try Backup.create(dataDirectory: sample.data, to: folder, binaryVersion: "1")
        return folder
    }

    /// Restores `backup` into a new folder; returns the refusal, or nil when it restored.
    func refusal(restoring backup: String, into target: String) -> BackupError? {
        do {
            try Backup.restore(from: backup, to: target, knownSchemaVersions: [:])
            return nil
        } catch {
            return error as? BackupError
        }
    }

    @Test("a blob replaced by a symbolic link to a file outside the backup, even one with the same bytes, is refused")
    func linkedFileIsRefused() throws {
        let sample = try SampleData()
        defer { sample.root.remove() }
        let backup = try backup(of: sample)
        // Bytes the manifest expects, kept outside: only the link is wrong, so only a check for links finds it.
        let outside = sample.root.path + "/outside-blob"
        #expect(FileManager.default.createFile(atPath: outside, contents: Data(repeating: 0, count: 1000)))
        try FileManager.default.removeItem(atPath: backup + "/blobs/blob0")
        try FileManager.default.createSymbolicLink(atPath: backup + "/blobs/blob0", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: backup + "/notes", withDestinationPath: "/etc/passwd")

        let target = sample.root.path + "/restored"
        let error = try #require(refusal(restoring: backup, into: target))
        #expect(error.code == .damaged)
        #expect(error.description.contains("blobs/blob0 is a symbolic link (to \(outside))"), "\(error)")
        #expect(error.description.contains("notes is a symbolic link (to /etc/passwd)"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing was restored")
    }

    @Test("a blob folder replaced by a symbolic link to a copy outside the backup is refused")
    func linkedFolderIsRefused() throws {
        let sample = try SampleData()
        defer { sample.root.remove() }
        let backup = try backup(of: sample)
        let outside = sample.root.path + "/outside-blobs"
        try FileManager.default.moveItem(atPath: backup + "/blobs", toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: backup + "/blobs", withDestinationPath: outside)

        #expect(throws: BackupError.self) { try Backup.verify(backup) }
        let target = sample.root.path + "/restored"
        let error = try #require(refusal(restoring: backup, into: target))
        #expect(error.description.contains("blobs is a symbolic link (to \(outside))"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing was restored")
    }

    @Test("row counts read a table whose name holds a quote that a combining mark joins, and never run the rest as SQL")
    func tableNamesAreQuotedByteByByte() throws {
        let root = TemporaryDirectory("quoting")
        defer { root.remove() }
        let path = root.path + "/odd.sqlite"
        // The second name is t, a quote with U+0301 on it, then SQL that would count no row of t were it run.
        let odd = "t\"\u{301} WHERE 0 --"
        let database = try Database(path: path)
        try database.write {
            try $0.execute("CREATE TABLE t (x)")
            try $0.execute("INSERT INTO t VALUES (1), (2), (3)")
            try $0.execute("CREATE TABLE \"t\"\"\u{301} WHERE 0 --\" (x)")
            try $0.execute("INSERT INTO \"t\"\"\u{301} WHERE 0 --\" VALUES (1)")
        }
        let counts = try Connection.readOnly(path).rowCounts()
        #expect(counts == ["t": 3, odd: 1])
    }
}
