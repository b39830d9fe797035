import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes files so that a reader or a crash never sees half of one: write to a temporary file in
/// the same filesystem, flush it to disk, then rename over the final name. On any failure the
/// temporary file is removed, so a full disk leaves nothing behind.
enum AtomicFile {
    /// Temporary files end in this; whatever a killed process left with it is swept at the next start.
    static let temporarySuffix = ".part"

    struct WriteError: Error, CustomStringConvertible {
        let path: String
        /// The `errno` of the call that failed.
        let code: Int32
        var description: String { "could not write \(path): \(String(cString: strerror(code)))" }

        /// The disk (or the process's file size limit, or a quota) has no room for the bytes.
        var isOutOfSpace: Bool { code == ENOSPC || code == EFBIG || code == EDQUOT }
    }

    static func write(
        _ bytes: [UInt8], to path: String, temporaryDirectory: String, fileSystem: BlobFileSystem = .system
    ) throws(WriteError) {
        let temporary = temporaryDirectory + "/" + UUID().uuidString + temporarySuffix
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: temporary, code: errno) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = fileSystem.write(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                if n == -Int(EINTR) { continue }
                if n < 0 {
                    failure = Int32(-n)
                    return
                }
                // A write of nothing with bytes left would loop for ever; treat it as a full disk.
                if n == 0 {
                    failure = ENOSPC
                    return
                }
                offset += n
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw WriteError(path: path, code: failure)
        }
    }

    /// Flushes the complete file at `source` to disk and renames it to `path` (same file system): the file's bytes
    /// are never copied, and a reader never sees half of them.
    static func place(_ source: String, at path: String) throws(WriteError) {
        let fd = open(source, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw WriteError(path: source, code: errno) }
        var failure: Int32 = fsync(fd) == 0 ? 0 : errno
        close(fd)
        if failure == 0 && rename(source, path) != 0 { failure = errno }
        guard failure == 0 else { throw WriteError(path: path, code: failure) }
    }
}
