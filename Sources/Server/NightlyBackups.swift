import Backups
import Foundation
import Logging
import Synchronization

/// `--backup-dir DIR --backup-keep N`: one backup a night at `--backup-time` while the server serves, the oldest
/// beyond N removed. The housekeeping loop asks it every minute whether one is due.
final class NightlyBackups: Sendable {
    let rotation: BackupRotation
    let schedule: BackupSchedule
    let dataDirectory: String
    private let nextRun: Mutex<Date>

    init(directory: String, keep: Int, schedule: BackupSchedule, dataDirectory: String, now: Date) {
        rotation = BackupRotation(directory: directory, keep: keep)
        self.schedule = schedule
        self.dataDirectory = dataDirectory
        nextRun = Mutex(schedule.nextRun(after: now))
    }

    /// When the next one runs.
    var next: Date { nextRun.withLock { $0 } }

    /// Makes the backup when one is due at `now` (at most one per due time, however late the check comes).
    /// - Returns: the new backup's folder; nil when none was due or it failed (which is logged, and retried the
    ///   next night).
    func runIfDue(now: Date) async -> String? {
        let due = nextRun.withLock { next -> Bool in
            guard now >= next else { return false }
            next = schedule.nextRun(after: now)
            return true
        }
        guard due else { return nil }
        let (rotation, data) = (rotation, dataDirectory)
        // Snapshots, hashing and linking block on the disk: a thread of its own, never the cooperative pool's.
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                do {
                    let (folder, manifest) = try rotation.run(dataDirectory: data, binaryVersion: Version.current, now: now)
                    log.info("nightly backup written to \(folder): \(manifest.blobCount) blobs, \(manifest.totalBytes) bytes")
                    continuation.resume(returning: folder)
                } catch {
                    log.error("the nightly backup failed: \(error)")
                    continuation.resume(returning: nil)
                }
            }
        }
    }
}
