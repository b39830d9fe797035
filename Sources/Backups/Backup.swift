public import Foundation
import Storage

#if canImport(Glibc)
    import Glibc
#endif

/// Backups of a data directory while the server keeps serving: each database through SQLite's online backup API (a
/// consistent snapshot, writers not blocked), the small files, every blob file hard-linked (or copied across
/// filesystems), then `manifest.json` with versions, row counts and checksums. The folder is built under a
/// temporary name and renamed into place at the end, so a backup that exists is a finished one; what a killed run
/// left under such a name is removed by the next backup into the same folder (`BackupStaging`).
public enum Backup {
    /// Backs up `dataDirectory` into `destination`, which must not exist or be an empty folder.
    /// - Parameters:
    ///   - layout: what the data directory holds.
    ///   - binaryVersion: recorded in the manifest.
    ///   - now: recorded in the manifest.
    /// - Returns: the manifest written.
    @discardableResult
    public static func create(
        dataDirectory: String, to destination: String, layout: DataLayout = .grainStories, binaryVersion: String, now: Date = Date()
    ) throws -> BackupManifest {
        guard Files.isDirectory(dataDirectory) else { throw BackupError(.io, "there is no data directory at \(dataDirectory)") }
        guard Files.isMissingOrEmpty(destination) else {
            throw BackupError(.notEmpty, "\(destination) already exists and is not empty; back up into a new folder")
        }
        let building = try BackupStaging(for: destination)
        let staging = building.path
        defer { withExtendedLifetime(building) {} }
        do {
            let manifest = try fill(staging, from: dataDirectory, layout: layout, binaryVersion: binaryVersion, now: now)
            try building.unmark()
            if Files.exists(destination) { rmdir(destination) }
            guard rename(staging, destination) == 0 else { throw Files.failure("rename the finished backup to", destination) }
            Files.syncDirectory((destination as NSString).deletingLastPathComponent)
            return manifest
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    static func fill(_ folder: String, from data: String, layout: DataLayout, binaryVersion: String, now: Date) throws -> BackupManifest {
        // Held to the end: no blob file is removed meanwhile, so every blob the snapshots name gets linked.
        let lock = try BackupLock.holdForBackup(dataDirectory: data)
        defer { withExtendedLifetime(lock) {} }
        var databases: [String: BackupManifest.DatabaseEntry] = [:]
        var files: [BackupManifest.FileEntry] = []
        for name in layout.databases where Files.exists(data + "/" + name) {
            let copy = folder + "/" + name
            try Database.snapshot(ofFileAt: data + "/" + name, to: copy)
            let connection = try Connection.readOnly(copy)
            databases[name] = BackupManifest.DatabaseEntry(schemaVersion: try connection.schemaVersion(), rows: try connection.rowCounts())
            files.append(try entry(name, in: folder))
        }
        for name in layout.files where Files.exists(data + "/" + name) && !DataLayout.looksLikeKey(name) {
            try Files.copy(data + "/" + name, to: folder + "/" + name)
            files.append(try entry(name, in: folder))
        }
        let blobs = data + "/" + layout.blobDirectory
        if Files.isDirectory(blobs) {
            try FileManager.default.createDirectory(atPath: folder + "/" + layout.blobDirectory, withIntermediateDirectories: true)
            for name in Files.names(in: blobs) {
                let relative = layout.blobDirectory + "/" + name
                guard BackupManifest.isSafe(relative), !DataLayout.looksLikeKey(name) else { continue }
                let linked: Bool
                do {
                    linked = try Files.linkOrCopy(blobs + "/" + name, to: folder + "/" + relative)
                } catch  where !Files.exists(blobs + "/" + name) {
                    // Removed after it was listed: only a blob no snapshot names can go while the lock is held.
                    continue
                }
                if linked, layout.blobsNamedByContent, let sha256 = ContentAddress.sha256(named: name) {
                    // The link is the blob store's own file, whose name is the SHA-256 of its bytes: reading the
                    // whole file again here would record the same digest (or a damaged file's, which `verify`,
                    // reading every byte against the name's digest, reports instead).
                    files.append(BackupManifest.FileEntry(path: relative, size: try Files.size(folder + "/" + relative), sha256: sha256))
                } else {
                    files.append(try entry(relative, in: folder))
                }
            }
            Files.syncDirectory(folder + "/" + layout.blobDirectory)
        }
        let manifest = BackupManifest(
            format: BackupManifest.currentFormat, binaryVersion: binaryVersion, createdAt: Self.timestamp(now), databases: databases,
            files: files)
        try Files.writeAtomically(try manifest.encoded(), to: folder + "/" + BackupManifest.fileName)
        Files.syncDirectory(folder)
        return manifest
    }

    static func entry(_ relative: String, in folder: String) throws -> BackupManifest.FileEntry {
        let (size, sha256) = try Files.hash(folder + "/" + relative)
        return BackupManifest.FileEntry(path: relative, size: size, sha256: sha256)
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
