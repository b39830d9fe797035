import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes files so that a reader or a crash never sees half of one: write to a temporary file in
/// the same filesystem, flush it to disk, then rename over the final name.
enum AtomicFile {
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "could not write \(path): \(reason)" }
    }

    static func write(_ bytes: [UInt8], to path: String, temporaryDirectory: String) throws {
        let temporary = temporaryDirectory + "/" + UUID().uuidString + ".part"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: temporary, reason: String(cString: strerror(errno))) }
        var ok = true
        var reason = ""
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    ok = false
                    reason = String(cString: strerror(errno))
                    return
                }
                offset += n
            }
        }
        if ok && fsync(fd) != 0 {
            ok = false
            reason = String(cString: strerror(errno))
        }
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            if ok { reason = String(cString: strerror(errno)) }
            unlink(temporary)
            throw WriteError(path: path, reason: reason)
        }
    }
}
