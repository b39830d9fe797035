import Foundation
import ImageFixtures
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a decompression bomb costs the process that receives it: `grain-stories image process`, the upload
/// pipeline as a command, run as a child whose peak resident memory the kernel reports when it ends.
struct HEIFBombMemoryTests {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The executable `swift build --build-tests` builds next to the test bundle.
    static func executable() throws -> String {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let binary = directory.appendingPathComponent("grain-stories").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw Failure(
                description: "the grain-stories executable is not at \(binary); build it with `swift build --build-tests`")
        }
        return binary
    }

    /// `grain-stories image process INPUT OUTPUT`, its standard error in `log`: its exit status and peak resident
    /// set in bytes, from `wait4` on that child alone (RUSAGE_CHILDREN would mix in the encoders other tests run).
    static func peakMemory(processing input: String, into output: String, log: String) throws -> (status: Int32, bytes: Int) {
        let arguments = [try executable(), "image", "process", input, output]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw Failure(description: "posix_spawn failed: \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { throw Failure(description: "wait4 failed") }
        // ru_maxrss is in kilobytes on Linux.
        return (status, usage.ru_maxrss * 1024)
    }

    @Test("an AVIF bomb (8192×8192 coded, 64×64 declared) peaks within 100 MB of a tiny photo's run")
    func avifBombStaysWithinMemoryOfTinyPhoto() throws {
        let fixtures = try FixtureDirectory()
        let bomb = try HEIFCodedSizeTests.avifBomb.get()
        let bombPath = try fixtures.write("bomb.avif", bomb.bytes)
        try fixtures.write("tiny.png", PNGBuilder.flat(width: 64, height: 48, red: 90, green: 120, blue: 200))
        try fixtures.run("avifenc", ["-s", "10", "tiny.png", "tiny.avif"])

        let idle = try Self.peakMemory(processing: fixtures.path("tiny.avif"), into: fixtures.path("tiny.jpg"), log: fixtures.path("tiny.log"))
        let refused = try Self.peakMemory(processing: bombPath, into: fixtures.path("bomb.jpg"), log: fixtures.path("bomb.log"))

        let tinyLog = String(decoding: try fixtures.read("tiny.log"), as: UTF8.self)
        let said = String(decoding: try fixtures.read("bomb.log"), as: UTF8.self)
        #expect(idle.status == 0, "the tiny photo was not processed: \(tinyLog)")
        #expect(refused.status != 0)
        #expect(said.contains("larger than the 64 × 64 its header declares"), "\(said)")
        let over = refused.bytes - idle.bytes
        #expect(over < 100_000_000, "the bomb peaked \(over / 1_000_000) MB above the tiny photo (\(idle.bytes / 1_000_000) MB)")
    }
}
