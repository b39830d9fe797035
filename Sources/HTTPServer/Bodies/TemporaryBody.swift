import Foundation
import Synchronization

/// A request body being streamed to a file in a route's directory, and the owner of that file. The server removes
/// it when the handler's response is returned and again (idempotently) when libmicrohttpd reports the request over,
/// which covers a handler that threw, a client that vanished mid-upload and shutdown; the last reference going
/// removes it too. A server killed mid-upload leaves it behind for `TemporaryBodies.sweep(directory:)`.
final class TemporaryBody: Sendable {
    private struct State {
        var fd: Int32
        var written = 0
        /// The file is gone (removed, or renamed away by `move(to:)`).
        var released = false
    }

    let path: String
    private let state: Mutex<State>

    private init(path: String, fd: Int32) {
        self.path = path
        state = Mutex(State(fd: fd))
    }

    deinit {
        remove()
    }

    /// Creates a fresh, private (0600) file under a random name in `directory`.
    static func create(in directory: String) throws(BodyFileError) -> TemporaryBody {
        for _ in 0..<4 {
            let path = directory + "/" + TemporaryBodies.randomName()
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 { return TemporaryBody(path: path, fd: fd) }
            let error = errno
            guard error == EEXIST else {
                let code: BodyFileError.Code = error == ENOSPC || error == EDQUOT || error == EFBIG ? .noSpace : .unwritable
                throw BodyFileError(code, "cannot create a body file in \(directory): \(String(cString: strerror(error)))")
            }
        }
        throw BodyFileError(.unwritable, "cannot find a free body file name in \(directory)")
    }

    /// Appends bytes; nil on success, else why not.
    func append(_ bytes: UnsafeRawBufferPointer) -> BodyFileError? {
        state.withLock { state in
            guard state.fd >= 0, bytes.baseAddress != nil else {
                return bytes.isEmpty ? nil : BodyFileError(.unwritable, "\(path) is closed")
            }
            let done = BodyFile.writeAll(state.fd, bytes)
            guard done == bytes.count else {
                let error = errno
                let code: BodyFileError.Code = error == ENOSPC || error == EDQUOT || error == EFBIG ? .noSpace : .unwritable
                return BodyFileError(code, "cannot write \(path): \(String(cString: strerror(error)))")
            }
            state.written += done
            return nil
        }
    }

    /// The bytes written so far.
    var count: Int { state.withLock { $0.written } }

    /// Closes the file for writing once the body is complete.
    func finishWriting() {
        state.withLock { state in
            if state.fd >= 0 {
                close(state.fd)
                state.fd = -1
            }
        }
    }

    /// Whether a range of `count` bytes from the start is the whole file.
    func isWhole(count: Int) -> Bool {
        state.withLock { !$0.released && $0.fd < 0 && $0.written == count }
    }

    /// Moves the file to `destination` (which must not exist, on the same file system) and gives up ownership; false
    /// if it cannot.
    func move(to destination: String) -> Bool {
        state.withLock { state in
            // link() refuses an existing destination atomically, where rename() would replace it.
            guard !state.released, !destination.contains("\0"), link(path, destination) == 0 else { return false }
            unlink(path)
            state.released = true
            return true
        }
    }

    /// Closes and deletes the file; does nothing the second time.
    func remove() {
        state.withLock { state in
            if state.fd >= 0 {
                close(state.fd)
                state.fd = -1
            }
            guard !state.released else { return }
            state.released = true
            unlink(path)
        }
    }

    /// Whether the file has been removed or moved away.
    var isReleased: Bool { state.withLock { $0.released } }
}

/// The files request bodies are streamed to, named `body-<32 hex digits>.tmp` in the route's directory.
public enum TemporaryBodies {
    static let prefix = "body-"
    static let suffix = ".tmp"

    /// Removes the body files a server killed mid-upload left in `directory` (only files named like ours, nothing
    /// else in it). Call it at start, before the server accepts requests.
    /// - Returns: how many were removed.
    @discardableResult
    public static func sweep(directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names where isBodyName(name) {
            if unlink(directory + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return prefix + hex.joined() + suffix
    }

    static func isBodyName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == prefix.utf8.count + 32 + suffix.utf8.count, name.hasPrefix(prefix), name.hasSuffix(suffix)
        else { return false }
        return bytes[prefix.utf8.count..<(prefix.utf8.count + 32)].allSatisfy { PercentDecoding.hexValue($0) != nil }
    }
}
