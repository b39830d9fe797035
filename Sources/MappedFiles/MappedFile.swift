#if canImport(Glibc)
    import Glibc
#endif

/// A whole file mapped read-only into memory, unmapped when the last reference goes. Its pages belong to the page
/// cache, so bytes a reader never touches cost no resident memory, and the kernel can drop them under pressure and
/// read them again. The size is checked before anything is mapped, so an oversized file is refused unread.
public final class MappedFile: @unchecked Sendable {
    // @unchecked: the mapping is read-only and never changes after `init`; it is unmapped only in `deinit`.

    /// Why a file could not be mapped.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// It could not be opened, inspected or mapped; the reason says which, with the system's words.
        case unreadable(path: String, reason: String)
        /// It is a directory, a device or anything else that is not a regular file.
        case notRegularFile(path: String)
        /// It has no bytes (nothing to map).
        case empty(path: String)
        /// It is larger than the caller allows.
        case tooLarge(path: String, size: Int, limit: Int)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
            case .notRegularFile(let path): "\(path) is not a regular file"
            case .empty(let path): "\(path) is empty"
            case .tooLarge(let path, let size, let limit): "\(path) is \(size) bytes, more than the \(limit) allowed"
            }
        }
    }

    /// The file's bytes.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// Where the file was mapped from, for messages.
    public let path: String

    /// Maps `path` when it is a regular file of 1 to `maximumSize` bytes.
    public init(path: String, maximumSize: Int) throws(Failure) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .unreadable(path: path, reason: errno == ENOENT ? "no such file" : Self.errorText())
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable(path: path, reason: Self.errorText()) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
        let size = Int(status.st_size)
        guard size <= maximumSize else { throw .tooLarge(path: path, size: size, limit: maximumSize) }
        guard size > 0 else { throw .empty(path: path) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw .unreadable(path: path, reason: "mmap failed: " + Self.errorText())
        }
        bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: size)
        self.path = path
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
