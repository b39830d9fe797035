import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file mapped read-only into memory. Its pages belong to the page cache, so the bytes a search never touches
/// cost no resident memory, and the kernel can drop them under pressure and read them again.
final class MappedFile: @unchecked Sendable {
    // @unchecked: the mapping is read-only and never changes after `init`; it is unmapped only in `deinit`.
    let bytes: UnsafeBufferPointer<UInt8>

    /// The largest file mapped: the real search table is about 21 MB.
    static let maximumSize = 512 * 1024 * 1024

    init(path: String) throws(PlaceIndexError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .unreadable(path, errno == ENOENT ? "no such file" : "open failed (errno \(errno))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path, "not a regular file") }
        let size = Int(status.st_size)
        guard size > 0 else { throw .noRows(path, skipped: 0) }
        guard size <= Self.maximumSize else { throw .unreadable(path, "larger than \(Self.maximumSize) bytes") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw .unreadable(path, "mmap failed (errno \(errno))")
        }
        bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }
}
