import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A failure of the deployment suite's machinery (a tool missing, a privilege lacking, a process that would not
/// start), with what to do about it.
struct DeploymentFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Short commands the suite runs to set a topology up: `ip`, `openssl`, `certutil`, `curl`.
enum Tool {
    /// Runs `command` to the end and returns its output (standard output and error together); throws with that
    /// output when it fails.
    @discardableResult
    static func run(_ command: [String], input: String? = nil, what: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        do { try process.run() } catch {
            throw DeploymentFailure("could not run \(command[0]) (\(error)); `make test-deps` installs the suite's tools")
        }
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        // Read before waiting, so a chatty tool cannot block on a full pipe.
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw DeploymentFailure("\(what ?? command.joined(separator: " ")) failed (exit \(process.terminationStatus)):\n\(text)")
        }
        return text
    }

    /// A port on 127.0.0.1 that was free a moment ago: for servers whose public URL must name their port before
    /// they start.
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw DeploymentFailure("could not find a free port on 127.0.0.1") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// A long-running child of the suite (grain-stories, nginx, the fake hatk), its output in a log file.
final class ChildProcess: @unchecked Sendable {
    let name: String
    let process = Process()
    let logPath: String

    init(
        _ name: String, _ command: [String], environment: [String: String] = [:], directory: URL = repositoryRoot, logDirectory: String
    ) throws {
        self.name = name
        logPath = logDirectory + "/\(name).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = directory
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw DeploymentFailure("could not start \(name) (\(command[0])): \(error)")
        }
        try log.close()
    }

    var output: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits until the output matches `pattern` and returns its first capture group.
    @discardableResult
    func waitFor(_ pattern: String, seconds: Int = 30) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if let found = captures(pattern, in: output).first { return found }
            guard process.isRunning, ContinuousClock.now < deadline else {
                stop()
                throw DeploymentFailure("\(name) did not get ready (waiting for /\(pattern)/); its output:\n\(output)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// SIGTERM, then SIGKILL if it has not ended within five seconds.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
