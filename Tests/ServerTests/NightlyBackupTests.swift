import Backups
import Foundation
import Testing

@testable import Server

/// `--backup-dir DIR --backup-keep N`: one backup when the nightly time has passed, none before, and only the
/// newest N kept.
@Suite struct NightlyBackupTests {
    @Test("a backup runs once each night after the scheduled time, and only the newest N are kept")
    func nightlyRotation() async throws {
        // setup: the demo household, backups at 03:30 UTC, keeping two
        let backups = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-\(UUID().uuidString)").path
        let live = try await LiveApp { configuration in
            configuration.backupDirectory = backups
            configuration.backupKeep = 2
            configuration.backupSchedule = BackupSchedule(hour: 3, minute: 30, timeZone: TimeZone(identifier: "UTC")!)
        }
        let nightly = try #require(live.app.nightly)
        let calendar = Calendar(identifier: .gregorian)
        func at(day: Int, _ hour: Int, _ minute: Int) -> Date {
            var components = DateComponents(year: 2030, month: 1, day: day, hour: hour, minute: minute)
            components.timeZone = TimeZone(identifier: "UTC")
            return calendar.date(from: components)!
        }
        // The schedule was set from the real clock; start it from a known night.
        let fresh = NightlyBackups(
            directory: backups, keep: 2, schedule: nightly.schedule, dataDirectory: live.dataDirectory, now: at(day: 1, 12, 0))

        // act and validate: nothing before 03:30, one just after, none again the same night
        #expect(await fresh.runIfDue(now: at(day: 2, 3, 29)) == nil)
        let first = try #require(await fresh.runIfDue(now: at(day: 2, 3, 31)))
        #expect(await fresh.runIfDue(now: at(day: 2, 4, 31)) == nil)
        let second = try #require(await fresh.runIfDue(now: at(day: 3, 3, 30)))
        let third = try #require(await fresh.runIfDue(now: at(day: 4, 5, 0)))

        // validate: the oldest went, the two newest verify and hold the demo's blobs
        let kept = BackupRotation(directory: backups, keep: 2).backups()
        #expect(kept == [second, third].map { ($0 as NSString).lastPathComponent })
        #expect(!FileManager.default.fileExists(atPath: first))
        for folder in [second, third] {
            let manifest = try Backup.verify(folder)
            #expect(manifest.blobCount > 0)
            #expect(manifest.databases.keys.sorted() == ["auth.sqlite", "backend.sqlite", "front.sqlite"])
        }
        #expect(nightly.next > Date())
        await live.stop()
    }
}
