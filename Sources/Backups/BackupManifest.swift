import Foundation

/// `manifest.json` at the top of a backup, written last: a folder without one is not a (finished) backup. It says
/// what made the backup and when, each database's schema version and row counts, and every file with its size and
/// SHA-256, which `backup verify` and `restore` check before trusting anything else in the folder.
public struct BackupManifest: Codable, Sendable, Equatable {
    /// The layout of this file; a reader refuses a format newer than the one it knows.
    public static let currentFormat = 1
    public static let fileName = "manifest.json"

    public var format: Int
    /// The grain-stories that made the backup.
    public var binaryVersion: String
    /// When the snapshots were taken (UTC, ISO 8601).
    public var createdAt: String
    /// Per database file: its schema version and row counts as snapshotted.
    public var databases: [String: DatabaseEntry]
    /// Every file of the backup but the manifest, by path relative to the backup's folder.
    public var files: [FileEntry]

    public struct DatabaseEntry: Codable, Sendable, Equatable {
        /// Migration steps applied (`PRAGMA user_version`).
        public var schemaVersion: Int
        /// Rows per table.
        public var rows: [String: Int]
    }

    public struct FileEntry: Codable, Sendable, Equatable {
        public var path: String
        public var size: Int
        /// Lower-case hex.
        public var sha256: String
    }

    /// Blob files in the backup.
    public var blobCount: Int { files.filter { $0.path.contains("/") }.count }
    /// Bytes of every file.
    public var totalBytes: Int { files.reduce(0) { $0 + $1.size } }

    /// Reads and checks the manifest of the backup in `folder`: its format, and that every path stays inside the folder.
    public static func read(from folder: String) throws -> BackupManifest {
        let path = folder + "/" + fileName
        try Files.refuseSymbolicLinks(in: folder, along: fileName)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BackupError(.notABackup, "\(folder) is not a backup: it has no \(fileName) (an interrupted backup has none)")
        }
        let manifest: BackupManifest
        do { manifest = try JSONDecoder().decode(BackupManifest.self, from: data) } catch {
            throw BackupError(.notABackup, "\(path) cannot be read: \(error)")
        }
        guard manifest.format <= currentFormat, manifest.format >= 1 else {
            throw BackupError(
                .notABackup, "\(path) has format \(manifest.format); this grain-stories reads format \(currentFormat). Use a newer one.")
        }
        for entry in manifest.files where !isSafe(entry.path) {
            throw BackupError(.damaged, "\(path) names a file outside the backup (\(entry.path)); it was not made by grain-stories")
        }
        return manifest
    }

    /// A relative path of plain names: no `..`, no leading `/`, nothing but letters, digits, `.`, `-`, `_` and `/`.
    static func isSafe(_ path: String) -> Bool {
        guard !path.isEmpty, path.utf8.count < 512, !path.hasPrefix("/") else { return false }
        let allowed = path.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || "._-/".utf8.contains($0)
        }
        return allowed && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
