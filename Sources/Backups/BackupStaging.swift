import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// The temporary folder a backup is built in (`<destination>.partial-XXXXXXXX`), marked as one by a file that the
/// process building it holds locked (`flock`) until the folder is renamed into place. The kernel drops the lock when
/// that process ends however it ends, so a marked folder that nobody holds is exactly what a killed or crashed run
/// left behind: the next backup into the same parent folder removes it. A folder without the mark is never touched.
final class BackupStaging {
    static let infix = ".partial-"
    static let markName = ".grain-stories-backup-in-progress"

    let path: String
    private let descriptor: Int32

    /// Makes the folder beside `destination` and marks it, locked; leftovers of killed runs beside it go first.
    init(for destination: String) throws {
        Self.removeAbandoned(in: Self.parent(of: destination))
        path = destination + Self.infix + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Locked under a name the sweep ignores, then renamed to the mark: no moment shows the mark unlocked.
        let unlocked = path + "/" + Self.markName + ".new"
        let fd = open(unlocked, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let failure = Files.failure("create", unlocked)
            try? FileManager.default.removeItem(atPath: path)
            throw failure
        }
        descriptor = fd
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, rename(unlocked, path + "/" + Self.markName) == 0 else {
            let failure = Files.failure("mark", path)
            try? FileManager.default.removeItem(atPath: path)
            throw failure
        }
    }

    deinit { close(descriptor) }

    /// Removes the mark before the folder gets its final name (a finished backup holds only what its manifest lists);
    /// the lock is held until this value is released, so no sweep can take the folder meanwhile.
    func unmark() throws {
        guard unlink(path + "/" + Self.markName) == 0 else { throw Files.failure("remove the mark from", path) }
    }

    static func parent(of destination: String) -> String {
        let parent = (destination as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// Removes the marked staging folders in `directory` that no running backup holds.
    /// - Returns: the names removed.
    @discardableResult
    static func removeAbandoned(in directory: String) -> [String] {
        var removed: [String] = []
        for name in Files.names(in: directory) where name.contains(infix) {
            let folder = directory + "/" + name
            let fd = open(folder + "/" + markName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            // Held by a backup still running: its folder, not a leftover.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            do {
                try FileManager.default.removeItem(atPath: folder)
                removed.append(name)
            } catch {
                log.warning("could not remove \(folder), left by a backup that did not finish: \(error)")
            }
        }
        if !removed.isEmpty { log.info("removed what unfinished backups left in \(directory): \(removed.joined(separator: ", "))") }
        return removed
    }
}
