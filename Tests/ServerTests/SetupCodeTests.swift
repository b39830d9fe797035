import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Server

/// The setup code file: private from its first byte, and never replaced once written.
@Suite struct SetupCodeTests {
    @Test("servers starting at once on a fresh data directory agree on one code, written 0600 and never replaced")
    func racingWritersAgree() throws {
        let directory = TemporaryDirectory("setup")
        defer { directory.remove() }
        let codes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let code = try? SetupCode(dataDirectory: directory.path).current()
            codes.withLock { $0.append(code ?? "failed") }
        }
        let written = try String(contentsOfFile: directory.path + "/setup-code", encoding: .utf8)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.path + "/setup-code")[.posixPermissions] as? Int
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)

        let all = codes.withLock { $0 }
        #expect(Set(all).count == 1, "every caller should get the one code on disk: \(Set(all))")
        #expect(all.first == written.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(mode == 0o600)
        #expect(names == ["setup-code"], "no temporary file is left: \(names)")
    }

    @Test("a code another process wrote first is read, not replaced; a file that holds no code is")
    func existingFileIsKept() throws {
        let directory = TemporaryDirectory("setup")
        defer { directory.remove() }
        let path = directory.path + "/setup-code"
        try Data("abcd-efgh-jkmn-pqrs\n".utf8).write(to: URL(fileURLWithPath: path))
        let kept = try SetupCode(dataDirectory: directory.path).current()
        try Data().write(to: URL(fileURLWithPath: path))
        let remade = try SetupCode(dataDirectory: directory.path).current()

        #expect(kept == "abcd-efgh-jkmn-pqrs")
        #expect(remade.count == 19 && remade != kept)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == remade + "\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }
}
