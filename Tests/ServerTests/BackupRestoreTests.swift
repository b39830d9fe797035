import ATProto
import App
import Foundation
import HatkClient
import Lexicon
import Storage
import Synchronization
import TestSupport
import Testing

@testable import Backups

#if canImport(Glibc)
    import Glibc
#endif

/// Backups against the real executable: `backup` while the server takes writes, `backup verify`, `restore` into a
/// new folder, and a server on the restored data that serves what the backup holds; and a clean stop that leaves
/// no write-ahead log unmerged.
@Suite(.serialized)
struct BackupRestoreTests {
    static let password = "a household password"

    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    }

    @Test("a household backed up under write load, restored into a new folder, serves the same records, blobs and sign-ins")
    func backupUnderLoadRestores() async throws {
        // setup: an owner with three stories posted through the front (a browser session), and a second sign-in
        // that keeps writing stories while the backup runs
        let data = temporary("household")
        try ServerProcess.addUser("maya", password: Self.password, dataDirectory: data)
        let server = try await ServerProcess(dataDirectory: data)
        defer { server.stop() }
        let browser = Browser(base: server.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: Self.password)
        for seed in 0..<3 {
            let posted = try await browser.postPhoto(try gradientJPEG(width: 320, height: 480, seed: seed), csrf: try await browser.createFormToken())
            #expect(posted.status == 303, "posting story \(seed) answered \(posted.status)")
        }
        let sessionCookie = try #require(browser.cookie("gs_session"))
        let (hatk, credentials) = try await server.signInForWrites(handle: "maya.home.test", password: Self.password)
        let stop = Atomic(false)
        let load = Task { () -> Int in
            var written = 0
            while !stop.load(ordering: .relaxed) {
                let blob = try await hatk.uploadBlob(
                    try gradientJPEG(width: 200, height: 300, seed: 100 + written), mimeType: "image/jpeg", as: credentials)
                let story = StoryRecord(media: blob, aspectRatio: AspectRatio(width: 200, height: 300), createdAt: UTCTime.now.iso8601)
                _ = try await hatk.createRecord(collection: StoryRecord.collection, record: try JSONValue(encoding: story), as: credentials)
                written += 1
            }
            return written
        }
        try await Task.sleep(for: .milliseconds(300))

        // act: back up while the load runs, then verify and restore the backup
        let backupFolder = temporary("backup")
        let backup = try ServerProcess.run(["backup", "--data", data, "--to", backupFolder])
        stop.store(true, ordering: .relaxed)
        let written = try await load.value
        let verify = try ServerProcess.run(["backup", "verify", backupFolder])
        let restoredData = temporary("restored")
        let restore = try ServerProcess.run(["restore", "--from", backupFolder, "--data", restoredData])
        let restored = try await ServerProcess(dataDirectory: restoredData, keyDirectory: data + "-keys")
        defer { restored.stop() }

        // validate: the commands said so
        #expect(backup.status == 0, "\(backup.output)")
        #expect(backup.output.contains("The sealing key is not in the backup"))
        #expect(written > 0, "the load wrote while the backup ran")
        #expect(verify.status == 0 && verify.output.contains("is sound"), "\(verify.output)")
        #expect(restore.status == 0, "\(restore.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: backupFolder)
        #expect(!names.contains { $0.hasSuffix(".key") }, "no sealing key in \(names)")

        // validate: every story the snapshot holds is served by the restored server, with its photo's bytes
        let snapshot = try Connection.readOnly(backupFolder + "/backend.sqlite")
        let stories = try snapshot.query("SELECT uri, did, cid, value FROM records WHERE collection = ?", [StoryRecord.collection])
        #expect(stories.count >= 3, "the three stories posted before the backup, and whatever the load added by then")
        let reader = Browser(base: restored.base)
        for row in stories {
            let uri = try #require(row.string("uri"))
            let record = try await reader.get(
                "/xrpc/dev.hatk.getRecord?uri=" + (uri.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? uri))
            #expect(record.status == 200, "\(uri) answered \(record.status)")
            #expect(record.body.contains(try #require(row.string("cid"))))
            let value = try #require(row.string("value"))
            let blobCID = try #require(captures(#""\$link"\s*:\s*"([a-z0-9]+)""#, in: value).first, "\(value)")
            let did = try #require(row.string("did"))
            let blob = try await reader.get("/xrpc/com.atproto.sync.getBlob?did=\(did)&cid=\(blobCID)")
            #expect(blob.status == 200, "blob \(blobCID) answered \(blob.status)")
            #expect(FileManager.default.contentsEqual(atPath: data + "/blobs/" + blobCID, andPath: restoredData + "/blobs/" + blobCID))
        }
        // validate: the browser session from before the backup is still signed in on the restored server, and the
        // password still signs in
        let returning = Browser(base: restored.base)
        returning.plant("gs_session", sessionCookie)
        let create = try await returning.get("/create")
        #expect(create.status == 200, "the restored session should open the create form; it answered \(create.status)")
        #expect(create.body.contains("maya.home.test"))
        let fresh = Browser(base: restored.base)
        try await fresh.signInThroughFront(handle: "maya.home.test", password: Self.password)
        #expect(try await fresh.get("/create").status == 200)
    }

    @Test("a backup killed midway leaves its folder under a temporary name, which the next backup there removes; a running one's is kept")
    func killedBackupIsCleanedUp() throws {
        // setup: two households, and a folder that takes their backups
        let data = temporary("household")
        let other = temporary("other-household")
        try ServerProcess.addUser("maya", password: Self.password, dataDirectory: data)
        try ServerProcess.addUser("jonas", password: Self.password, dataDirectory: other)
        let backups = temporary("backups")
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        func start(_ household: String, to name: String) throws -> Process {
            let process = Process()
            process.executableURL = try ServerProcess.executable()
            process.arguments = ["backup", "--data", household, "--to", backups + "/" + name]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        /// The backup's folder under its temporary name once it is marked as in progress.
        func staging(_ name: String) throws -> String {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let found = Files.names(in: backups).first { $0.hasPrefix(name + BackupStaging.infix) }
                if let found, Files.exists(backups + "/" + found + "/" + BackupStaging.markName) { return found }
                Thread.sleep(forTimeInterval: 0.01)
            }
            throw ProcessFailure("no folder of the backup \(name) appeared in \(Files.names(in: backups))")
        }

        // act: each household's removal lock held, as a blob collection holds it, so each backup stops right after
        // making its folder: one is killed there (SIGKILL: no clean-up of its own), the other is still waiting when
        // the next backup of the first household runs into the same folder
        var killed = "", waiting = "", during: [String] = []
        var next: (status: Int32, output: String) = (-1, "")
        var running: Process?
        _ = try BackupLock.unlessBackingUp(dataDirectory: other) {
            running = try start(other, to: "running")
            _ = try BackupLock.unlessBackingUp(dataDirectory: data) {
                let doomed = try start(data, to: "killed")
                killed = try staging("killed")
                waiting = try staging("running")
                kill(doomed.processIdentifier, SIGKILL)
                doomed.waitUntilExit()
            }
            next = try ServerProcess.run(["backup", "--data", data, "--to", backups + "/next"])
            during = Files.names(in: backups)
        }
        running?.waitUntilExit()

        // validate
        #expect(next.status == 0, "\(next.output)")
        #expect(!during.contains(killed), "the killed run's folder is removed: \(during)")
        #expect(during.contains(waiting), "the folder of a backup still running is kept: \(during)")
        #expect(during.contains("next"))
        #expect(running?.terminationStatus == 0, "the backup that waited finishes")
        #expect(Files.names(in: backups) == ["next", "running"])
        #expect(try ServerProcess.run(["backup", "verify", backups + "/next"]).status == 0)
        #expect(try ServerProcess.run(["backup", "verify", backups + "/running"]).status == 0, "no mark is left in a finished backup")
    }

    @Test("after a graceful stop no database has unmerged pages in a -wal file")
    func cleanStopCheckpoints() async throws {
        // setup: a server that wrote to all three databases (an account, a sign-in, a session, a story)
        let data = temporary("clean-stop")
        try ServerProcess.addUser("maya", password: Self.password, dataDirectory: data)
        let server = try await ServerProcess(dataDirectory: data)
        let browser = Browser(base: server.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: Self.password)
        let posted = try await browser.postPhoto(try gradientJPEG(width: 320, height: 480), csrf: try await browser.createFormToken())
        #expect(posted.status == 303)
        let before = ["backend.sqlite", "auth.sqlite", "front.sqlite"].map { Self.size(data + "/" + $0 + "-wal") }
        #expect(before.contains { $0 > 0 }, "the writes went to write-ahead logs: \(before)")

        // act
        server.stop()

        // validate: SIGTERM ended it normally, and every WAL is gone or empty
        #expect(server.process.terminationStatus == 0, "\(server.output)")
        #expect(server.output.contains("grain-stories stopped"))
        for name in ["backend.sqlite", "auth.sqlite", "front.sqlite"] {
            #expect(Self.size(data + "/" + name + "-wal") == 0, "\(name)-wal still holds pages after a clean stop")
        }
        // The database files alone hold every write.
        let alone = try Connection.readOnly(data + "/backend.sqlite")
        #expect(try alone.queryOne("SELECT COUNT(*) AS n FROM records WHERE collection = ?", [StoryRecord.collection])?.int("n") == 1)
    }

    @Test("restore --without-key: the lost key's sessions are dropped, a new key is made, and passwords still sign in")
    func restoreWithoutKey() async throws {
        // setup: a household with a browser session, backed up, and its key then lost
        let data = temporary("lost-key")
        try ServerProcess.addUser("maya", password: Self.password, dataDirectory: data)
        let server = try await ServerProcess(dataDirectory: data)
        let browser = Browser(base: server.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: Self.password)
        let posted = try await browser.postPhoto(try gradientJPEG(width: 320, height: 480), csrf: try await browser.createFormToken())
        #expect(posted.status == 303)
        let sessionCookie = try #require(browser.cookie("gs_session"))
        server.stop()
        let backupFolder = temporary("lost-key-backup")
        #expect(try ServerProcess.run(["backup", "--data", data, "--to", backupFolder]).status == 0)
        let restoredData = temporary("lost-key-restored")
        let newKeys = temporary("new-keys")

        // act: without the flag the restored data refuses to start on another key; with it, it starts
        let plain = try ServerProcess.run(["restore", "--from", backupFolder, "--data", restoredData + "-plain"])
        let refused = try ServerProcess.run(["serve", "--port", "0", "--data", restoredData + "-plain", "--key-dir", newKeys])
        let restore = try ServerProcess.run(["restore", "--from", backupFolder, "--data", restoredData, "--without-key"])
        let restored = try await ServerProcess(dataDirectory: restoredData, keyDirectory: newKeys)
        defer { restored.stop() }

        // validate
        #expect(plain.status == 0)
        #expect(refused.status == 1 && refused.output.contains("restore the key file"), "\(refused.output)")
        #expect(restore.status == 0 && restore.output.contains("Every member signs in again"), "\(restore.output)")
        let returning = Browser(base: restored.base)
        returning.plant("gs_session", sessionCookie)
        #expect(try await returning.get("/create").status == 302, "a session sealed with the lost key is gone")
        let fresh = Browser(base: restored.base)
        try await fresh.signInThroughFront(handle: "maya.home.test", password: Self.password)
        let profile = try await fresh.get("/profile/maya.home.test")
        #expect(profile.status == 200)
        #expect(profile.body.contains("/story/"), "the story is still there")
    }

    /// The size of a file; 0 when it does not exist.
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
