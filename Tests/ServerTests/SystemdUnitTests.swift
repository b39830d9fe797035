import Foundation
import TestSupport
import Testing

/// The Debian package's systemd units, read from `Packaging/debian` (the package test, `make deb-test`, checks them
/// installed, but needs root and a Debian root): limits that keep a runaway decode or a stuck backup from taking the
/// whole box, and systemd's own parser finding nothing wrong with them.
struct SystemdUnitTests {
    static func unit(_ name: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("Packaging/debian/\(name)"), encoding: .utf8)
    }

    /// The value of `key=` in a unit's text (the last one, as systemd takes it); nil when it is not set.
    static func value(_ key: String, in unit: String) -> String? {
        unit.split(separator: "\n").last { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    /// A size as systemd reads memory limits (bytes, or K, M, G with 1024 steps); nil for anything else.
    static func bytes(_ text: String?) -> Int? {
        guard let text, let unit = text.last else { return nil }
        let steps: [Character: Int] = ["K": 1, "M": 2, "G": 3]
        guard let power = steps[unit] else { return Int(text) }
        return Int(text.dropLast()).map { $0 << (10 * power) }
    }

    @Test("the server and the backup job each have MemoryHigh below MemoryMax, and TasksMax; the backup's are smaller")
    func memoryAndTasksAreLimited() throws {
        let server = try Self.unit("grain-stories.service")
        let backup = try Self.unit("grain-stories-backup.service")
        var limits: [(high: Int, max: Int, tasks: Int)] = []
        for (name, unit) in [("grain-stories.service", server), ("grain-stories-backup.service", backup)] {
            let high = try #require(Self.bytes(Self.value("MemoryHigh", in: unit)), "\(name) sets no MemoryHigh in bytes")
            let max = try #require(Self.bytes(Self.value("MemoryMax", in: unit)), "\(name) sets no MemoryMax in bytes")
            let tasks = try #require(Self.value("TasksMax", in: unit).flatMap { Int($0) }, "\(name) sets no TasksMax")
            #expect(high < max, "\(name): the kernel should reclaim before it ends the service")
            limits.append((high, max, tasks))
        }
        // An image decode peaks at a few hundred MB; the server must have room for it.
        #expect(limits[0].high >= 512 << 20)
        #expect(limits[1].max < limits[0].high && limits[1].tasks < limits[0].tasks, "a backup takes less than the server")
    }

    @Test("systemd-analyze verify finds nothing to say about the units (their programs stood in for by /bin/true)")
    func unitsVerify() throws {
        let directory = TemporaryDirectory("units")
        defer { directory.remove() }
        // ExecStart names programs the package installs, which this machine may not have: verify would stop there.
        var paths: [String] = []
        for name in ["grain-stories.service", "grain-stories-backup.service"] {
            let text = try Self.unit(name).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("ExecStart=") ? "ExecStart=/bin/true" : String($0) }.joined(separator: "\n")
            let path = directory.path + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let output = try Tool.run(["systemd-analyze", "verify"] + paths, what: "systemd-analyze verify (make test-deps installs systemd)")
        #expect(output.isEmpty, "\(output)")
    }
}
