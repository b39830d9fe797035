import Foundation

/// A byte range of a file: a request body streamed to disk, or one file part of a form parsed from such a body.
/// A range of a server-made temporary file keeps that file alive; the server removes it once the handler's response
/// is returned (or the request fails), so read it in the handler or `persist(to:)` it.
public struct BodyFile: Sendable, Equatable, CustomStringConvertible {
    /// The file's path. A decoder can open it and read `count` bytes from `offset`.
    public let path: String
    /// Where the range starts in the file.
    public let offset: Int
    /// The range's length in bytes.
    public let count: Int
    /// The temporary file this range belongs to, if the server made it.
    let owner: TemporaryBody?

    /// A range of a file the caller owns (tests, or bodies made outside the server).
    public init(path: String, offset: Int = 0, count: Int) {
        self.init(path: path, offset: offset, count: count, owner: nil)
    }

    init(path: String, offset: Int, count: Int, owner: TemporaryBody?) {
        self.path = path
        self.offset = max(0, offset)
        self.count = max(0, count)
        self.owner = owner
    }

    /// Bytes `range` of this range (0 is its first byte), clamped to its end.
    /// - Throws: `BodyFileError` when the file cannot be opened or ends early.
    public func read(_ range: Range<Int>) throws(BodyFileError) -> [UInt8] {
        let reader = try FileReader(path: path)
        let lower = min(max(0, range.lowerBound), count)
        let upper = min(max(lower, range.upperBound), count)
        return try reader.read(at: offset + lower, count: upper - lower)
    }

    /// A range within this one (used for multipart parts); shares the owner.
    func slice(_ range: Range<Int>) -> BodyFile {
        BodyFile(path: path, offset: offset + range.lowerBound, count: range.count, owner: owner)
    }

    /// Keeps the bytes at `destination` (which must not exist): the temporary file is renamed there when this
    /// range is all of it and it is on the same file system, else the range is copied.
    /// - Throws: `BodyFileError` when the destination exists or cannot be written.
    public func persist(to destination: String) throws(BodyFileError) {
        if let owner, offset == 0, owner.isWhole(count: count), owner.move(to: destination) {
            return
        }
        let reader = try FileReader(path: path)
        let out = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard out >= 0 else {
            throw BodyFileError(.unwritable, "cannot create \(destination): \(String(cString: strerror(errno)))")
        }
        defer { close(out) }
        var buffer = [UInt8](repeating: 0, count: min(count, 256 * 1024))
        var copied = 0
        while copied < count {
            let chunk = min(buffer.count, count - copied)
            let filled = buffer.withUnsafeMutableBytes {
                reader.fill(UnsafeMutableRawBufferPointer(rebasing: $0[..<chunk]), at: offset + copied)
            }
            let wrote = filled == chunk ? buffer.withUnsafeBytes { Self.writeAll(out, UnsafeRawBufferPointer(rebasing: $0[..<chunk])) } : nil
            guard let wrote, wrote == chunk else {
                let reason = filled == chunk ? String(cString: strerror(errno)) : "the file ended early"
                unlink(destination)
                throw BodyFileError(.unwritable, "cannot copy \(path) to \(destination): \(reason)")
            }
            copied += chunk
        }
    }

    /// Writes every byte; returns how many were written (fewer on an error).
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            let wrote = write(fd, base + done, bytes.count - done)
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { break }
            done += wrote
        }
        return done
    }

    public var description: String { "\(path)[\(offset)..<\(offset + count)]" }

    public static func == (a: BodyFile, b: BodyFile) -> Bool {
        a.path == b.path && a.offset == b.offset && a.count == b.count
    }
}

/// Why a body on disk could not be read, kept or stored.
public struct BodyFileError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable {
        /// The file could not be opened or read, or it is shorter than the range.
        case unreadable
        /// A destination could not be written.
        case unwritable
        /// The body is larger than the caller's limit.
        case tooLarge
        /// No room on the disk (ENOSPC, EDQUOT, or EFBIG past a file size limit).
        case noSpace
    }

    /// What went wrong.
    public let code: Code
    /// The file and the cause, for logs (never shown to clients).
    public let description: String

    init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}

/// An open file read with `pread`, closed on release.
final class FileReader {
    let fd: Int32
    let path: String

    init(path: String) throws(BodyFileError) {
        let fd = path.contains("\0") ? -1 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw BodyFileError(.unreadable, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        self.path = path
    }

    deinit {
        close(fd)
    }

    /// Exactly `count` bytes from `offset`.
    func read(at offset: Int, count: Int) throws(BodyFileError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { fill($0, at: offset) }
        guard got == count else {
            throw BodyFileError(.unreadable, "\(path) ended at \(offset + max(0, got)) before \(offset + count)")
        }
        return bytes
    }

    /// Fills as much of `buffer` as the file has from `offset`; returns the count, or -1 on an error.
    func fill(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        var done = 0
        while done < buffer.count {
            let got = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return -1 }
            if got == 0 { break }
            done += got
        }
        return done
    }
}
