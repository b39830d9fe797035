import Synchronization

#if canImport(Glibc)
    public import Glibc
#endif

/// The one system call through which blob bytes reach the disk. Everything else about a blob write (the
/// temporary file, fsync, rename, clean-up) stays real; tests replace only this call to make the disk "full".
public struct BlobFileSystem: Sendable {
    /// Writes some of `buffer` to `descriptor`, like `write(2)`: the number of bytes written, or `-errno`.
    public var write: @Sendable (_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int

    /// - Parameter write: Writes some bytes and returns their count, or a negated `errno` on failure.
    public init(write: @escaping @Sendable (_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int) {
        self.write = write
    }

    /// The real `write(2)`.
    public static let system = BlobFileSystem { descriptor, buffer in
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let written = Glibc.write(descriptor, base, buffer.count)
        return written < 0 ? -Int(errno) : written
    }

    /// A disk that fills up once `capacity` bytes have been written through this value (across all files),
    /// then fails every write with `failure` (`ENOSPC` by default, `EFBIG` for a file size limit).
    public static func filling(after capacity: Int, failure: Int32 = ENOSPC) -> BlobFileSystem {
        let room = RoomLeft(capacity)
        return BlobFileSystem { descriptor, buffer in
            let allowed = room.take(buffer.count)
            guard allowed > 0 else { return -Int(failure) }
            return system.write(descriptor, UnsafeRawBufferPointer(rebasing: buffer.prefix(allowed)))
        }
    }
}

/// Bytes left on a pretend disk.
private final class RoomLeft: Sendable {
    private let left: Mutex<Int>
    init(_ capacity: Int) { left = Mutex(max(0, capacity)) }

    /// Claims up to `count` bytes; returns how many may be written.
    func take(_ count: Int) -> Int {
        left.withLock { left in
            let granted = min(left, count)
            left -= granted
            return granted
        }
    }
}
