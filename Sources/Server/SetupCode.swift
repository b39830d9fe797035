import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one-time code that lets whoever runs the server create the household's owner: printed at start and kept
/// in `<data>/setup-code` (mode 0600) while the household is empty, so the first stranger to reach a fresh
/// server on the network (the Docker image listens on every interface) cannot make themselves its owner.
struct SetupCode: Sendable {
    let path: String

    init(dataDirectory: String) throws {
        path = dataDirectory + "/setup-code"
    }

    /// The code, made (and written, 0600) on first use.
    ///
    /// The file is never readable by others, not even for a moment, and never replaced: the code is written whole
    /// to a temporary file created 0600 with O_EXCL, then hard-linked to its name, which fails if a file is there.
    /// Two servers (or a server and `users add`) starting at once therefore agree on one code, the first linked.
    func current() throws -> String {
        for _ in 0..<3 {
            if let code = stored() { return code }
            let code = Self.fresh()
            if try link(code) { return code }
            // Another writer linked its code first (read it on the next turn), or the file there is not a code:
            // one that was cut short or emptied is replaced, since it can let nobody in.
            if stored() == nil { unlink(path) }
        }
        throw SetupCodeError(description: "could not make a setup code at \(path)")
    }

    /// The code in the file, if it holds one.
    private func stored() -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let code = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return code.count >= 8 ? code : nil
    }

    /// Four groups of four from an alphabet without look-alikes: easy to type from a terminal onto a phone.
    private static func fresh() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        return SecureRandom.bytes(16).map { alphabet[Int($0) % alphabet.count] }.chunked(4).map { String($0) }.joined(separator: "-")
    }

    /// Writes `code` to a private temporary file and links it to `path`; false when a file is already there.
    private func link(_ code: String) throws -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = path + ".\(Hex.encode(SecureRandom.bytes(8))).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SetupCodeError(description: "could not create \(temporary): \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        let bytes = Array((code + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else { throw SetupCodeError(description: "could not write \(temporary)") }
        guard Glibc.link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw SetupCodeError(description: "could not write \(path): \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// Whether `candidate` is the code, compared in constant time; dashes and case are forgiven.
    func matches(_ candidate: String) throws -> Bool {
        let normal = { (text: String) in Array(text.lowercased().filter { $0.isLetter || $0.isNumber }.utf8) }
        let expected = normal(try current())
        return !expected.isEmpty && constantTimeEquals(expected, normal(candidate))
    }

    /// Forgets the code once the owner exists.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

struct SetupCodeError: Error, CustomStringConvertible {
    let description: String
}

extension Array {
    fileprivate func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
