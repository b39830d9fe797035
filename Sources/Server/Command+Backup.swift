import App
import AuthServer
import Backups
import Foundation

/// `backup`, `backup verify` and `restore`: parsing and carrying out. None needs the sealing key, and none ever
/// copies it: a backup holds the key's id, and the key stays where it is kept (see the README).
extension Command {
    public struct RestoreCommand: Sendable, Equatable {
        public var source: String
        public var dataDirectory: String
        /// The key is lost: drop what it sealed (sessions, sign-in tokens, the token-signing key) so the restored
        /// data starts with a new key; every member signs in again.
        public var withoutKey = false
    }

    static func parseBackup(_ arguments: [String]) throws(UsageError) -> Command {
        let usage = "usage: grain-stories backup --data DIR --to DEST, or grain-stories backup verify SRC"
        if arguments.first == "verify" {
            guard arguments.count == 2 else { throw UsageError(description: usage) }
            return .verifyBackup(source: arguments[1])
        }
        let options = try pairs(arguments, allowed: ["--data", "--to"], usage: usage)
        guard let destination = options["--to"] else { throw UsageError(description: "backup needs --to DEST\n\(usage)") }
        return .backup(dataDirectory: options["--data"] ?? "./data", destination: destination)
    }

    static func parseRestore(_ arguments: [String]) throws(UsageError) -> RestoreCommand {
        let usage = "usage: grain-stories restore --from SRC --data EMPTYDIR [--without-key]"
        let withoutKey = arguments.contains("--without-key")
        let options = try pairs(arguments.filter { $0 != "--without-key" }, allowed: ["--from", "--data"], usage: usage)
        guard let source = options["--from"], let data = options["--data"] else { throw UsageError(description: usage) }
        return RestoreCommand(source: source, dataDirectory: data, withoutKey: withoutKey)
    }

    /// `--flag value` pairs, each flag among `allowed` and given once.
    static func pairs(_ arguments: [String], allowed: Set<String>, usage: String) throws(UsageError) -> [String: String] {
        var rest = arguments[...]
        var found: [String: String] = [:]
        while let flag = rest.popFirst() {
            guard allowed.contains(flag), found[flag] == nil else { throw UsageError(description: "unexpected \(flag)\n\(usage)") }
            guard let value = rest.popFirst(), !value.hasPrefix("--") else { throw UsageError(description: "\(flag) needs a value") }
            found[flag] = value
        }
        return found
    }

    func backup(dataDirectory: String, destination: String) throws {
        let manifest = try Backup.create(dataDirectory: dataDirectory, to: destination, binaryVersion: Version.current)
        print("Backed up \(dataDirectory) to \(destination)")
        print(Self.summary(manifest))
        print("The sealing key is not in the backup; keep a copy of it apart (see the README).")
    }

    func verifyBackup(_ source: String) throws {
        let manifest = try Backup.verify(source)
        print("The backup in \(source) is sound.")
        print(Self.summary(manifest))
    }

    func restore(_ command: RestoreCommand) throws {
        let manifest = try Backup.restore(from: command.source, to: command.dataDirectory, knownSchemaVersions: SchemaUpgrade.known)
        print("Restored \(command.source) into \(command.dataDirectory) and checked it.")
        print(Self.summary(manifest))
        if command.withoutKey {
            try Front.forgetSealedState(dataDirectory: command.dataDirectory)
            try AuthServer.forgetSealedState(dataDirectory: command.dataDirectory)
            try? FileManager.default.removeItem(atPath: command.dataDirectory + "/key-id")
            print("Dropped the sessions and sign-in keys the lost key sealed; a new key is made at the first start.")
            print("Every member signs in again; stories, photos and passwords are kept.")
        } else {
            print("Serve it with the same sealing key as the data it came from (`--key-file` or `--key-dir`),")
            print("or restore again with --without-key if that key is lost.")
        }
    }

    static func summary(_ manifest: BackupManifest) -> String {
        let databases = manifest.databases.sorted { $0.key < $1.key }.map { name, entry in
            "  \(name): schema version \(entry.schemaVersion), \(entry.rows.values.reduce(0, +)) rows"
        }
        return
            (["  made \(manifest.createdAt) by grain-stories \(manifest.binaryVersion)"] + databases + [
                "  \(manifest.blobCount) blob files, \(manifest.totalBytes) bytes in all"
            ]).joined(separator: "\n")
    }
}
