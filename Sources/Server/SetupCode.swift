import Crypto
import Foundation

/// The one-time code that lets whoever runs the server create the household's owner: printed at start and kept
/// in `<data>/setup-code` (mode 0600) while the household is empty, so the first stranger to reach a fresh
/// server on the network (the Docker image listens on every interface) cannot make themselves its owner.
struct SetupCode: Sendable {
    let path: String

    init(dataDirectory: String) throws {
        path = dataDirectory + "/setup-code"
    }

    /// The code, made (and written, 0600) on first use.
    func current() throws -> String {
        if let data = FileManager.default.contents(atPath: path) {
            let code = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if code.count >= 8 { return code }
        }
        // Four groups of four from an alphabet without look-alikes: easy to type from a terminal onto a phone.
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        let code = SecureRandom.bytes(16).map { alphabet[Int($0) % alphabet.count] }.chunked(4).map { String($0) }.joined(separator: "-")
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data((code + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw SetupCodeError(description: "could not write \(path)") }
        return code
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
