import ATProto
import Foundation
import Workers

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
        /// Seen marks of stories past ``BackendStore/viewRetention``.
        public var viewsPruned = 0
    }

    /// Deletes uploads older than ``orphanBlobGrace`` that no record references, the files of blobs no account owns
    /// any more (including any a failed removal left), and old seen marks.
    @discardableResult
    public func collectGarbage() async throws -> GarbageReport {
        let now = clock()
        var report = GarbageReport()
        let (rows, _) = try store.collectUnreferencedBlobs(uploadedBefore: now.adding(seconds: -Self.orphanBlobGrace))
        report.orphanUploads = rows
        let (blobs, store) = (blobs, store)
        // On the blob queue, so no upload is between writing its files and recording its row.
        report.filesRemoved = try await blobQueue.run(mandatory: true) {
            let owned = try store.ownedBlobCIDs()
            var removed = 0
            for cid in blobs.storedCIDs() where !owned.contains(cid) {
                blobs.remove(cid: cid)
                removed += 1
            }
            return removed
        }
        report.viewsPruned = try store.pruneViews(now: now)
        return report
    }
}
