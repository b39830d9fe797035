import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps blob files in place while a backup runs, across processes: a backup holds `<data>/backup.lock` shared for
/// its whole run, and whatever deletes blob files takes it exclusively without waiting, skipping its removals when a
/// backup holds it. So a blob that a snapshot's records name is still on disk when the backup links it, and the
/// removal simply happens at the next collection.
public final class BackupLock: Sendable {
    private let descriptor: Int32

    static func path(in dataDirectory: String) -> String { dataDirectory + "/backup.lock" }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Holds the lock shared until the returned value is released, waiting for a removal pass in progress to end.
    public static func holdForBackup(dataDirectory: String) throws -> BackupLock {
        let fd = try open(dataDirectory)
        while flock(fd, LOCK_SH) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(fd)
                throw BackupError(.io, "could not lock \(path(in: dataDirectory)): \(String(cString: strerror(code)))")
            }
        }
        return BackupLock(descriptor: fd)
    }

    /// Runs `body` (which removes blob files) unless a backup is running; nil when one is and nothing ran.
    public static func unlessBackingUp<T>(dataDirectory: String, _ body: () throws -> T) throws -> T? {
        let fd = try open(dataDirectory)
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            if errno == EWOULDBLOCK { return nil }
            throw BackupError(.io, "could not lock \(path(in: dataDirectory)): \(String(cString: strerror(errno)))")
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    private static func open(_ dataDirectory: String) throws -> Int32 {
        let fd = Glibc.open(path(in: dataDirectory), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw BackupError(.io, "could not open \(path(in: dataDirectory)): \(String(cString: strerror(errno)))")
        }
        return fd
    }
}
