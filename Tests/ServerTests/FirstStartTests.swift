import Foundation
import HatkClient
import Readers
import TestSupport
import Testing

/// What a person sees when they start the server for the first time (issue 10 item 5): the demo household is ready
/// before the server says so, the output says how to reach it and how to make the owner, and a missing place table
/// is a warning rather than silence.
@Suite(.serialized)
struct FirstStartTests {
    static let repository = repositoryRoot.path

    /// `grain-stories serve ARGUMENTS` on a fresh data directory, its output in a file; the caller stops it.
    static func start(_ arguments: [String], data: String) throws -> (Process, String) {
        let log = data + "-serve.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let process = Process()
        process.executableURL = try ServerProcess.executable()
        process.arguments =
            ["serve", "--data", data, "--key-dir", data + "-keys", "--templates", repository + "/Templates", "--public", repository + "/Public"]
            + arguments
        process.currentDirectoryURL = repositoryRoot
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
        return (process, log)
    }

    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Reads the log until `text` shows up (or the process ends, or 30 s pass).
    static func output(_ log: String, containing text: String, process: Process) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if output.contains(text) { return output }
            guard process.isRunning, ContinuousClock.now < deadline else { return output }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test("with --demo, /healthz answers only once the household is seeded: a member signs in at its first 200")
    func healthyMeansReady() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("first-\(UUID().uuidString)").path
        let port = try Tool.freePort()
        let base = "http://127.0.0.1:\(port)"
        let (process, log) = try Self.start(
            ["--demo", "--demo-photos", demoPhotos, "--host", "127.0.0.1", "--port", String(port), "--geocoder", "none"], data: data)
        defer { Self.stop(process) }
        let browser = Browser(base: base)
        let deadline = ContinuousClock.now + .seconds(60)
        var healthy = false
        while !healthy, process.isRunning, ContinuousClock.now < deadline {
            // Refused connections and any answer but 200 mean "not yet"; the loop asks again at once.
            healthy = (try? await browser.get("/healthz").status) == 200
            if !healthy { try await Task.sleep(for: .milliseconds(5)) }
        }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try #require(healthy, "the server never became healthy:\n\(text)")
        // At once, no waiting: the member the demo printed signs in, and the household's stories are there.
        // The household is private (the default): the member's own client reads it.
        let (client, credentials) = try await signInForWrites(base: base, handle: "maya.home.test", password: "maya-stories")
        let authors = try await client.reading(as: { credentials }).storyAuthors()
        #expect(authors.count >= 3, "the strip right after the first 200 has \(authors.count) authors")
    }

    @Test("bound to loopback, serve says how to let the household's phones in; an empty household gets its setup code")
    func firstOutputSaysWhatToDo() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("first-\(UUID().uuidString)").path
        let (process, log) = try Self.start(["--host", "127.0.0.1", "--port", "0", "--geocoder", "none"], data: data)
        defer { Self.stop(process) }
        let output = try await Self.output(log, containing: "serving on", process: process)
        #expect(output.contains("--host 0.0.0.0"), "no hint for reaching it from other devices:\n\(output)")
        #expect(!output.contains("from other devices:"), "loopback is not reachable from other devices:\n\(output)")
        let code = try String(contentsOfFile: data + "/setup-code", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!code.isEmpty)
        #expect(output.contains("Open /welcome and enter the setup code: \(code)"), "the setup code is not printed:\n\(output)")
    }

    @Test("a missing place table is a warning at start naming the file and the command that makes it")
    func missingPlaceTablesAreWarnings() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("first-\(UUID().uuidString)").path
        let (process, log) = try Self.start(
            [
                "--host", "127.0.0.1", "--port", "0", "--geocoder", "offline", "--places", data + "/no-cities.csv", "--place-names",
                data + "/no-names.csv",
            ], data: data)
        defer { Self.stop(process) }
        let output = try await Self.output(log, containing: "serving on", process: process)
        #expect(output.contains("no readable place table at \(data)/no-cities.csv (run `make places-data`)"), "\(output)")
        #expect(output.contains("no readable place search table at \(data)/no-names.csv (run `make places-data`)"), "\(output)")
    }
}
