import App
import AuthServer
import Crypto
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// The AES-256-GCM key that seals tokens, DPoP keys and the authorization server's secrets at rest.
///
/// It is kept apart from the data directory, because the data directory is what people back up and copy: a
/// stolen backup must not open every refresh token in it. Where it comes from, first match wins:
/// 1. `GRAIN_STORIES_DATA_KEY` (32 bytes, base64url), for supervisors that hand out secrets;
/// 2. `--key-file PATH`;
/// 3. `<key directory>/<key id>.key`, where the key id is a random, non-secret name kept in `<data>/key-id` and
///    the key directory is `--key-dir`, else `$XDG_CONFIG_HOME/grain-stories/keys`, else
///    `~/.config/grain-stories/keys`. Made on first start: the directory 0700, the file 0600 with O_EXCL.
/// A key file inside the data directory is refused unless `--allow-key-in-data` says so; the `secret.key` that
/// older versions kept there is moved out to the key directory once, with a line in the log.
struct DataKey {
    static let environmentVariable = "GRAIN_STORIES_DATA_KEY"

    struct KeyError: Error, CustomStringConvertible {
        let description: String
    }

    /// Where to look, from configuration.
    struct Location: Sendable, Equatable {
        var dataDirectory: String
        var keyFile: String?
        var keyDirectory: String?
        var allowInData = false
    }

    static func load(
        _ location: Location, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> SealingKey {
        if let encoded = environment[environmentVariable] {
            guard let raw = Base64URL.decode(encoded), raw.count == 32, let key = try? SealingKey(rawRepresentation: raw) else {
                throw KeyError(description: "\(environmentVariable) must be 32 bytes in base64url")
            }
            return key
        }
        try FileManager.default.createDirectory(atPath: location.dataDirectory, withIntermediateDirectories: true)
        let path = try keyPath(location, environment: environment)
        if !location.allowInData, isInside(path, location.dataDirectory) {
            throw KeyError(
                description: "the sealing key \(path) is inside the data directory, which backups copy; keep it elsewhere "
                    + "(--key-file or --key-dir), or pass --allow-key-in-data if you really mean it")
        }
        let legacy = location.dataDirectory + "/secret.key"
        if location.keyFile == nil, !FileManager.default.fileExists(atPath: path), FileManager.default.fileExists(atPath: legacy),
            !isInside(path, location.dataDirectory)
        {
            try createDirectory(for: path)
            guard rename(legacy, path) == 0 else {
                throw KeyError(description: "could not move \(legacy) to \(path): \(String(cString: strerror(errno)))")
            }
            log.warning("moved the sealing key out of the data directory to \(path); keep it apart from backups of the data")
        }
        if let data = FileManager.default.contents(atPath: path) {
            guard let key = try? SealingKey(rawRepresentation: [UInt8](data)) else {
                throw KeyError(description: "\(path) is not a 32-byte key; restore it from where you keep it")
            }
            return key
        }
        if location.keyFile == nil, try hasSealedData(location.dataDirectory) {
            throw KeyError(
                description: "this data directory holds sealed sessions and keys, but its sealing key is not at \(path); "
                    + "restore the key file there (or point --key-file at it)")
        }
        return try create(at: path)
    }

    /// The key file's path for `location`.
    static func keyPath(_ location: Location, environment: [String: String]) throws -> String {
        if let file = location.keyFile { return absolute(file) }
        let directory =
            location.keyDirectory.map(absolute)
            ?? environment["XDG_CONFIG_HOME"].map { $0 + "/grain-stories/keys" }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config/grain-stories/keys"
        return directory + "/" + (try keyID(location.dataDirectory)) + ".key"
    }

    /// The data directory's key id: a random name, made once and kept in `<data>/key-id`, so a data directory moved
    /// to another path (or restored from a backup) still finds its key.
    static func keyID(_ dataDirectory: String) throws -> String {
        let path = dataDirectory + "/key-id"
        if let data = FileManager.default.contents(atPath: path) {
            let id = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !id.isEmpty,
                id.utf8.allSatisfy({
                    $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || $0 == UInt8(ascii: "-"))
                })
            else { throw KeyError(description: "\(path) does not hold a key id; restore it from a backup") }
            return id
        }
        let id = SecureRandom.token(byteCount: 12).replacingOccurrences(of: "_", with: "-")
        guard FileManager.default.createFile(atPath: path, contents: Data((id + "\n").utf8)) else {
            throw KeyError(description: "could not write \(path)")
        }
        return id
    }

    /// A new key, written with O_EXCL so two servers starting at once cannot each make one.
    static func create(at path: String) throws -> SealingKey {
        try createDirectory(for: path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST, let data = FileManager.default.contents(atPath: path), let key = try? SealingKey(rawRepresentation: [UInt8](data)) {
                return key
            }
            throw KeyError(description: "could not create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let key = SealingKey.random()
        let bytes = key.rawRepresentation
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            unlink(path)
            throw KeyError(description: "could not write \(path)")
        }
        return key
    }

    static func createDirectory(for path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Whether the data directory already holds state sealed with some key (a key must not be silently replaced):
    /// a session, a sign-in in progress or the sign-in server's secrets. A database that cannot be read counts as
    /// sealed. Data restored `--without-key` holds none, so it gets a new key.
    static func hasSealedData(_ dataDirectory: String) throws -> Bool {
        do {
            return try Front.hasSealedState(dataDirectory: dataDirectory) || AuthServer.hasSealedState(dataDirectory: dataDirectory)
        } catch {
            return true
        }
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Whether `path` is `directory` or below it, after resolving symbolic links and `..`.
    static func isInside(_ path: String, _ directory: String) -> Bool {
        let resolvedPath = URL(fileURLWithPath: absolute(path)).standardizedFileURL.resolvingSymlinksInPath().path
        let resolvedDirectory = URL(fileURLWithPath: absolute(directory)).standardizedFileURL.resolvingSymlinksInPath().path
        return resolvedPath == resolvedDirectory || resolvedPath.hasPrefix(resolvedDirectory + "/")
    }
}
