import Foundation
import Storage

extension Backup {
    /// Checks the backup in `folder` against its manifest: every file there with its size and SHA-256, nothing else
    /// beside them (a sealing key above all), each database sound (`integrity_check`) with the schema version and row
    /// counts the manifest records.
    /// - Returns: the manifest, when everything holds.
    /// - Throws: `BackupError` `.notABackup`, or `.damaged` listing every problem found.
    @discardableResult
    public static func verify(_ folder: String) throws -> BackupManifest {
        let manifest = try BackupManifest.read(from: folder)
        let found = problems(in: folder, manifest: manifest)
        guard found.isEmpty else {
            throw BackupError(.damaged, "the backup in \(folder) is damaged:\n" + found.map { "  - " + $0 }.joined(separator: "\n"))
        }
        return manifest
    }

    /// What is wrong with the backup in `folder`, one sentence each; empty when it is sound.
    static func problems(in folder: String, manifest: BackupManifest) -> [String] {
        var problems: [String] = []
        let listed = Set(manifest.files.map(\.path))
        for entry in manifest.files {
            let path = folder + "/" + entry.path
            guard let (size, sha256) = try? Files.hash(path) else {
                problems.append("\(entry.path) is missing or unreadable")
                continue
            }
            if size != entry.size {
                problems.append("\(entry.path) has \(size) bytes, the manifest says \(entry.size)")
            } else if sha256 != entry.sha256 {
                problems.append("\(entry.path) does not match its checksum")
            }
        }
        for path in allFiles(in: folder) where path != BackupManifest.fileName && !listed.contains(path) {
            if DataLayout.looksLikeKey((path as NSString).lastPathComponent) {
                problems.append("\(path) looks like a sealing key; keys never belong in a backup: move it out and keep it apart")
            } else {
                problems.append("\(path) is not in the manifest")
            }
        }
        for (name, expected) in manifest.databases.sorted(by: { $0.key < $1.key }) {
            guard listed.contains(name) else {
                problems.append("\(name) is described but not listed among the files")
                continue
            }
            do {
                let connection = try Connection.readOnly(folder + "/" + name)
                let integrity = try connection.integrityProblems()
                if !integrity.isEmpty { problems.append("\(name) fails SQLite's integrity check: \(integrity.joined(separator: "; "))") }
                let version = try connection.schemaVersion()
                if version != expected.schemaVersion {
                    problems.append("\(name) has schema version \(version), the manifest says \(expected.schemaVersion)")
                }
                let rows = try connection.rowCounts()
                if rows != expected.rows { problems.append("\(name) holds other row counts than the manifest records") }
            } catch {
                problems.append("\(name) cannot be opened: \(error)")
            }
        }
        return problems
    }

    /// Every regular file under `folder`, as relative paths.
    static func allFiles(in folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var paths: [String] = []
        while let path = enumerator.nextObject() as? String {
            if !Files.isDirectory(folder + "/" + path) { paths.append(path) }
        }
        return paths.sorted()
    }
}
