public import Foundation
import Logging

/// When the nightly backup runs: once a day at a time of day on the server's clock (its local time zone unless
/// told otherwise). A value: the maintenance loop asks it, with the time, whether a run is due.
public struct BackupSchedule: Sendable, Equatable {
    public var hour: Int
    public var minute: Int
    public var timeZone: TimeZone

    /// - Parameters: hour 0-23 and minute 0-59.
    public init(hour: Int, minute: Int, timeZone: TimeZone = .current) {
        self.hour = hour
        self.minute = minute
        self.timeZone = timeZone
    }

    /// `HH:MM` (24-hour), as `--backup-time` takes it; nil for anything else.
    public init?(parsing text: String, timeZone: TimeZone = .current) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }), let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        self.init(hour: hour, minute: minute, timeZone: timeZone)
    }

    /// The first scheduled moment strictly after `date`.
    public func nextRun(after date: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(hour: hour, minute: minute, second: 0)
        return calendar.nextDate(after: date, matching: components, matchingPolicy: .nextTime) ?? date.addingTimeInterval(86400)
    }

    /// `03:30`.
    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}

/// One series of backups in a folder (the nightly ones, or those made before upgrades): each in its own subfolder
/// named by the series' prefix and its UTC time, so names sort by age; the oldest beyond the number to keep are
/// removed after each new one. Series with different prefixes share a folder without touching each other's backups.
public struct BackupRotation: Sendable {
    public let directory: String
    /// Finished backups to keep (at least 1).
    public let keep: Int
    /// What every folder of this series' name starts with.
    public let prefix: String

    public init(directory: String, keep: Int, prefix: String = Self.prefix) {
        self.directory = directory
        self.keep = max(1, keep)
        self.prefix = prefix
    }

    /// The nightly series' prefix.
    public static let prefix = "grain-stories-"

    /// The backups made before a schema upgrade: `pre-upgrade-grain-stories-<time>`. Only the newest two are kept:
    /// each holds every photo as it was, deleted stories' too, so an unrotated series would keep those on disk for
    /// good; two still leave the last upgrade, and the one before it, to undo.
    public static func preUpgrade(in directory: String) -> BackupRotation {
        BackupRotation(directory: directory, keep: 2, prefix: "pre-upgrade-" + Self.prefix)
    }

    /// `grain-stories-20261201T033000Z`: a nightly backup's folder name.
    public static func folderName(for date: Date) -> String {
        prefix + timestamp(date)
    }

    /// `20261201T033000Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// Finished backups of this series (those with a manifest), oldest first.
    public func backups() -> [String] {
        Files.names(in: directory).filter {
            $0.hasPrefix(prefix) && !$0.contains(BackupStaging.infix) && Files.exists(directory + "/" + $0 + "/" + BackupManifest.fileName)
        }
    }

    /// Makes a backup named for `now`, then removes the oldest beyond `keep`.
    /// - Returns: the new backup's folder and manifest.
    @discardableResult
    public func run(
        dataDirectory: String, layout: DataLayout = .grainStories, binaryVersion: String, now: Date
    ) throws -> (
        folder: String, manifest: BackupManifest
    ) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let name = prefix + Self.timestamp(now)
        var folder = directory + "/" + name
        // Two in the same second (a manual one beside the nightly one) get distinct names.
        var suffix = 1
        while Files.exists(folder) {
            suffix += 1
            folder = directory + "/" + name + "-\(suffix)"
        }
        let manifest = try Backup.create(dataDirectory: dataDirectory, to: folder, layout: layout, binaryVersion: binaryVersion, now: now)
        prune()
        return (folder, manifest)
    }

    /// Removes the oldest finished backups beyond `keep`. (What interrupted ones left, each new backup removes.)
    /// - Returns: the folders removed.
    @discardableResult
    public func prune() -> [String] {
        var removed: [String] = []
        let finished = backups()
        for name in finished.dropLast(keep) {
            if (try? FileManager.default.removeItem(atPath: directory + "/" + name)) != nil { removed.append(name) }
        }
        if !removed.isEmpty { log.info("removed old backups: \(removed.joined(separator: ", "))") }
        return removed
    }
}
