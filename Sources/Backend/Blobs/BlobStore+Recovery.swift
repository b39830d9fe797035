import Foundation
import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// What a process killed in the middle of ``BlobStore/store(_:mimeType:)`` can leave behind, and its removal.
///
/// A write goes: variants to temporary files, renamed into place; then the original the same way. A kill can
/// leave a temporary file (`tmp/*.part`, or an upload's body arriving in `tmp/body-*.tmp`), or variants whose original never arrived. Neither is referenced by
/// the database (a blob's row is inserted only after its original exists), so both are removed at the next start.
extension BlobStore {
    /// What the start-up sweep removed.
    public struct Recovery: Sendable, Equatable, CustomStringConvertible {
        /// Temporary files of writes that never finished.
        public var temporaryFiles = 0
        /// Thumbnails and avatars whose original was never written.
        public var orphanedVariants = 0

        public var total: Int { temporaryFiles + orphanedVariants }

        public init(temporaryFiles: Int = 0, orphanedVariants: Int = 0) {
            self.temporaryFiles = temporaryFiles
            self.orphanedVariants = orphanedVariants
        }

        public var description: String {
            "\(temporaryFiles) temporary file\(temporaryFiles == 1 ? "" : "s") and "
                + "\(orphanedVariants) orphaned image variant\(orphanedVariants == 1 ? "" : "s")"
        }
    }

    static func sweep(root: String, temporary: String) -> Recovery {
        var recovery = Recovery()
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasSuffix(AtomicFile.temporarySuffix) {
            if unlink(temporary + "/" + name) == 0 { recovery.temporaryFiles += 1 }
        }
        // Bodies of blob uploads that were arriving when the process died.
        recovery.temporaryFiles += TemporaryBodies.sweep(directory: temporary)
        let names = Set((try? files.contentsOfDirectory(atPath: root)) ?? [])
        let variantSuffixes = Preset.allCases.map(\.suffix).filter { !$0.isEmpty }
        for name in names {
            guard let suffix = variantSuffixes.first(where: { name.hasSuffix($0) }) else { continue }
            let original = String(name.dropLast(suffix.count))
            if !names.contains(original), unlink(root + "/" + name) == 0 { recovery.orphanedVariants += 1 }
        }
        return recovery
    }
}

/// An advisory lock on a data directory's blob area, held shared by every open ``BlobStore`` (in any process).
/// Whoever gets it exclusively first is alone with the directory, so nothing it finds half-written can still be
/// in progress: it sweeps, then keeps the lock shared like everyone else.
final class DirectoryLease: Sendable {
    private let descriptor: Int32
    /// What the sweep removed; nil when another store held the directory and no sweep ran.
    let recovered: BlobStore.Recovery?

    struct LockError: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "could not lock \(path): \(String(cString: strerror(code)))" }
    }

    /// - Parameters:
    ///   - path: the lock file, created when missing.
    ///   - sweep: runs only if nobody else holds the lock.
    init(path: String, sweep: () -> BlobStore.Recovery) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw LockError(path: path, code: errno) }
        let recovered = flock(fd, LOCK_EX | LOCK_NB) == 0 ? sweep() : nil
        // Shared from now on: other stores may open the directory, and none of them may sweep it.
        while flock(fd, LOCK_SH) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(fd)
                throw LockError(path: path, code: code)
            }
        }
        descriptor = fd
        self.recovered = recovered
    }

    deinit { close(descriptor) }
}
