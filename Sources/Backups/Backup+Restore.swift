import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Backup {
    /// Restores the backup in `source` into `target`, which must not exist or be an empty folder: checks the backup
    /// first (nothing is copied from a damaged one), refuses databases newer than this binary, then copies the
    /// databases and small files and links (or copies) the blobs. A failure removes what was copied.
    /// - Parameter knownSchemaVersions: the newest schema version this binary knows, per database file.
    /// - Returns: the backup's manifest.
    @discardableResult
    public static func restore(from source: String, to target: String, knownSchemaVersions: [String: Int]) throws -> BackupManifest {
        guard Files.isMissingOrEmpty(target) else {
            throw BackupError(.notEmpty, "\(target) is not empty; restore into a new, empty folder (nothing was changed)")
        }
        let manifest = try verify(source)
        for (name, entry) in manifest.databases.sorted(by: { $0.key < $1.key }) {
            if let known = knownSchemaVersions[name], entry.schemaVersion > known {
                throw BackupError(
                    .newerSchema,
                    "this data was written by a newer grain-stories; install that version or restore a backup "
                        + "(\(name) in the backup has schema version \(entry.schemaVersion); this binary knows up to \(known))")
            }
        }
        let created = !Files.exists(target)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            for entry in manifest.files {
                // Checked by verify too; again here, just before reading, in case the folder changed since.
                try Files.refuseSymbolicLinks(in: source, along: entry.path)
                let destination = target + "/" + entry.path
                let folder = (destination as NSString).deletingLastPathComponent
                if !Files.exists(folder) { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                if entry.path.contains("/") {
                    // Blobs are never rewritten: a link shares them with the backup safely.
                    try Files.linkOrCopy(source + "/" + entry.path, to: destination)
                } else {
                    // Databases get written to: a copy of their own, never a link into the backup.
                    try Files.copy(source + "/" + entry.path, to: destination)
                }
            }
            for folder in Set(manifest.files.map { (target + "/" + $0.path as NSString).deletingLastPathComponent }) {
                Files.syncDirectory(folder)
            }
        } catch {
            if created {
                try? FileManager.default.removeItem(atPath: target)
            } else {
                for name in Files.names(in: target) { try? FileManager.default.removeItem(atPath: target + "/" + name) }
            }
            throw error
        }
        return manifest
    }
}
