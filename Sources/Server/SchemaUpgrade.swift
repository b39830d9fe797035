import App
import AuthServer
import Backend
import Backups
import Foundation
import Logging
import Storage

/// Start-up's look at each database before anything opens it: one written by a newer grain-stories stops the
/// start with ``SchemaError``'s message (nothing is touched), and one from an older version gets a backup before
/// its migration runs, so an upgrade that goes wrong can be undone with `restore`.
enum SchemaUpgrade {
    /// The schema version this binary brings each database to.
    static var known: [String: Int] {
        ["backend.sqlite": BackendStore.schemaVersion, "auth.sqlite": AuthServer.schemaVersion, "front.sqlite": Front.schemaVersion]
    }

    /// What start-up found: the databases an older version wrote, and the backup made of them.
    struct Outcome: Sendable, Equatable {
        /// Database file name, its version and the version it migrates to.
        var older: [String: ClosedRange<Int>] = [:]
        /// The backup folder made before migrating; nil when nothing needed migrating.
        var backup: String?
    }

    /// Refuses a newer database; backs up the data directory when any database is older than this binary.
    /// - Parameters:
    ///   - backupDirectory: where the backup goes (`--backup-dir`); nil is `<data>/backups`, which backups of the
    ///     data leave out.
    static func prepare(dataDirectory: String, backupDirectory: String?, now: Date) throws -> Outcome {
        var outcome = Outcome()
        for (name, known) in known.sorted(by: { $0.key < $1.key }) {
            let path = dataDirectory + "/" + name
            guard let found = try Database.schemaVersion(ofFileAt: path) else { continue }
            guard found <= known else { throw SchemaError(path: path, found: found, known: known) }
            // Version 0 is a file no migration ever ran on: nothing in it to protect.
            if found < known, found > 0 { outcome.older[name] = found...known }
        }
        guard !outcome.older.isEmpty else { return outcome }
        // Older pre-upgrade backups beyond the newest two go once this one is made: they hold deleted stories' photos.
        let rotation = BackupRotation.preUpgrade(in: backupDirectory ?? dataDirectory + "/backups")
        let folder = try rotation.run(dataDirectory: dataDirectory, binaryVersion: Version.current, now: now).folder
        let steps = outcome.older.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.lowerBound) → \($0.value.upperBound)" }
        log.info("upgrading the data (\(steps.joined(separator: ", "))); backed it up first to \(folder)")
        outcome.backup = folder
        return outcome
    }
}
