public import ATProto
import Foundation
import Logging

/// Housekeeping without a timer of its own: the composition root calls ``EmbeddedBackend/collectGarbage()`` every
/// few minutes (and tests call it with a moved clock).
extension EmbeddedBackend {
    /// How long an upload may wait for the record that references it before it is collected.
    public static let orphanBlobGrace: Double = 60 * 60

    /// What one collection removed.
    public struct GarbageReport: Sendable, Equatable {
        /// Blob rows of uploads no record ever referenced.
        public var orphanUploads = 0
        /// Blobs whose files were deleted (no account owns them any more).
        public var filesRemoved = 0
        /// Seen marks of stories past ``PrivateStateStore/viewRetention``.
        public var viewsPruned = 0
    }

    /// Deletes uploads older than ``orphanBlobGrace`` that no record references, the files of blobs no account owns
    /// any more (including any a failed removal left), old seen marks, unused pairing links and dead share links.
    @discardableResult
    public func collectGarbage() async throws -> GarbageReport {
        let now = clock()
        var report = GarbageReport()
        let (rows, _) = try store.blobs.collectUnreferencedBlobs(uploadedBefore: now.adding(seconds: -Self.orphanBlobGrace))
        report.orphanUploads = rows
        // After the rows, so the files of uploads just collected go too.
        report.filesRemoved = try await files.removeUnownedFiles()
        report.viewsPruned = try store.privateState.pruneViews(now: now)
        try store.screens.prunePairings(now: now)
        try store.shares.pruneShares(now: now)
        return report
    }
}

extension EmbeddedBackend {
    /// Deletes the members whose removal is due (records, blob rows, then the files no one else owns); the
    /// composition root calls this from its housekeeping, and removes their passwords and sessions elsewhere.
    /// - Returns: the DIDs removed.
    @discardableResult
    public func removeDueMembers() async throws -> [DID] {
        var removed: [DID] = []
        for did in try store.members.dueRemovals(now: clock()) {
            guard let unowned = try store.members.purgeScheduled(did) else { continue }
            await files.removeBlobFiles(unowned)
            log.info("removed member \(did) and their records, as scheduled")
            removed.append(did)
        }
        return removed
    }
}
