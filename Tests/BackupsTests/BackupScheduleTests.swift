import Backups
import Foundation
import TestSupport
import Testing

struct BackupScheduleTests {
    let utc = TimeZone(identifier: "UTC")!

    func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("the next run is today's time when it is still ahead, else tomorrow's")
    func nextRun() throws {
        let schedule = try #require(BackupSchedule(parsing: "03:30", timeZone: utc))
        #expect(schedule.nextRun(after: date("2026-12-01T01:00:00Z")) == date("2026-12-01T03:30:00Z"))
        #expect(schedule.nextRun(after: date("2026-12-01T03:30:00Z")) == date("2026-12-02T03:30:00Z"))
        #expect(schedule.nextRun(after: date("2026-12-31T23:59:00Z")) == date("2027-01-01T03:30:00Z"))
        #expect(schedule.description == "03:30")
    }

    @Test("only HH:MM times of a real day parse")
    func parsing() {
        for bad in ["3:30", "24:00", "12:60", "12-30", "", "ab:cd", "12:30:00"] {
            #expect(BackupSchedule(parsing: bad) == nil, "\(bad)")
        }
        #expect(BackupSchedule(parsing: "00:00")?.hour == 0)
        #expect(BackupSchedule(parsing: "23:59")?.minute == 59)
    }

    @Test("nightly backups keep the newest N and remove the rest")
    func rotation() throws {
        let sample = try SampleData(blobs: 1)
        defer { sample.root.remove() }
        let rotation = BackupRotation(directory: sample.root.path + "/nightly", keep: 2)
        var folders: [String] = []
        for day in 1...4 {
            folders.append(try rotation.run(dataDirectory: sample.data, binaryVersion: "1", now: date("2026-12-0\(day)T03:30:00Z")).folder)
        }
        #expect(rotation.backups() == ["grain-stories-20261203T033000Z", "grain-stories-20261204T033000Z"])
        #expect(!FileManager.default.fileExists(atPath: folders[0]))
        try Backup.verify(folders[3])
        // A second backup in the same second gets its own folder.
        let again = try rotation.run(dataDirectory: sample.data, binaryVersion: "1", now: date("2026-12-04T03:30:00Z")).folder
        #expect(again.hasSuffix("-2"))
    }

    @Test("a series keeps its newest N by its own prefix and never removes another series' backups")
    func seriesRotateApart() throws {
        let sample = try SampleData(blobs: 1)
        defer { sample.root.remove() }
        let directory = sample.root.path + "/backups"
        let nightly = BackupRotation(directory: directory, keep: 1)
        let upgrades = BackupRotation.preUpgrade(in: directory)
        for day in 1...3 {
            try nightly.run(dataDirectory: sample.data, binaryVersion: "1", now: date("2026-12-0\(day)T03:30:00Z"))
            try upgrades.run(dataDirectory: sample.data, binaryVersion: "1", now: date("2026-12-0\(day)T09:00:00Z"))
        }
        #expect(nightly.backups() == ["grain-stories-20261203T033000Z"])
        #expect(upgrades.backups() == ["pre-upgrade-grain-stories-20261202T090000Z", "pre-upgrade-grain-stories-20261203T090000Z"])
    }
}
