import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The file operations backups are made of: hashing, linking or copying, atomic writes. Every failure names the path.
enum Files {
    static let chunk = 1 << 20

    static func failure(_ what: String, _ path: String, _ code: Int32 = errno) -> BackupError {
        BackupError(.io, "could not \(what) \(path): \(String(cString: strerror(code)))")
    }

    /// The size and SHA-256 (hex) of a file, read in pieces.
    static func hash(_ path: String) throws -> (size: Int, sha256: String) {
        do {
            let (size, digest) = try SHA256.hash(fileAt: path)
            return (size, Hex.encode(digest))
        } catch {
            throw BackupError(.io, error.message)
        }
    }

    /// A hard link at `destination` to `source` when both are on one filesystem (blob files are never rewritten,
    /// so sharing the inode is safe), else a copy. Returns whether it linked.
    @discardableResult
    static func linkOrCopy(_ source: String, to destination: String) throws -> Bool {
        // link(2) does not follow a symbolic link: it would link the link itself, pointing wherever it points.
        if kind(source) == S_IFLNK { throw linkRefusal(source, target: target(ofLink: source)) }
        if link(source, destination) == 0 { return true }
        let code = errno
        guard [EXDEV, EPERM, EMLINK, ENOTSUP, EOPNOTSUPP].contains(code) else { throw failure("link", destination, code) }
        try copy(source, to: destination)
        return false
    }

    /// Copies a file byte for byte into a new file (never over an existing one), flushed to disk.
    static func copy(_ source: String, to destination: String) throws {
        let input = try openForReading(source)
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw failure("create", destination) }
        var ok = false
        defer {
            close(output)
            if !ok { unlink(destination) }
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(input, buffer.baseAddress, chunk)
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("read", source)
            }
            if n == 0 { break }
            var offset = 0
            while offset < n {
                let written = write(output, buffer.baseAddress! + offset, n - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("write", destination)
                }
                offset += written
            }
        }
        guard fsync(output) == 0 else { throw failure("flush", destination) }
        ok = true
    }

    /// Writes `data` to a temporary name beside `path`, flushes it and renames it into place.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp-\(UUID().uuidString)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("create", temporary) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let flushed = fsync(fd) == 0
        close(fd)
        guard written == data.count, flushed, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw failure("write", path)
        }
    }

    /// Flushes a directory's entries (new names, links and renames) to disk.
    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// The size of a file in bytes.
    static func size(_ path: String) throws -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure("read", path) }
        return Int(status.st_size)
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The names in a directory, or none when it does not exist.
    static func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// Whether `path` is missing or an empty directory.
    static func isMissingOrEmpty(_ path: String) -> Bool {
        !exists(path) || (isDirectory(path) && names(in: path).isEmpty)
    }
}
