import Foundation
import Storage

#if canImport(Glibc)
    import Glibc
#endif

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
        var links = Set<String>()
        for entry in manifest.files {
            let path = folder + "/" + entry.path
            if let link = Files.symbolicLink(in: folder, along: entry.path) {
                if links.insert(link.path).inserted { problems.append(Files.linkRefusal(link.path, target: link.target).description) }
                continue
            }
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
            if Files.kind(folder + "/" + path) == S_IFLNK {
                if links.insert(path).inserted {
                    problems.append(Files.linkRefusal(path, target: Files.target(ofLink: folder + "/" + path)).description)
                }
            } else if DataLayout.looksLikeKey((path as NSString).lastPathComponent) {
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

    /// Everything under `folder` that is not a folder (files, and symbolic links, never followed), as relative paths.
    static func allFiles(in folder: String, under prefix: String = "") -> [String] {
        Files.names(in: folder + "/" + prefix).flatMap { name -> [String] in
            let path = prefix.isEmpty ? name : prefix + "/" + name
            return Files.kind(folder + "/" + path) == S_IFDIR ? allFiles(in: folder, under: path) : [path]
        }.sorted()
    }
}
