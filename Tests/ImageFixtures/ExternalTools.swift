public import Foundation
import Imaging

/// Runs Debian's encoders (heif-enc from libheif-examples, avifenc from libavif-bin, cwebp from webp; `make
/// test-deps` installs them) to make fixtures at test time, in a temporary directory removed afterwards.
public final class FixtureDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("imaging-fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    public func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    public struct ToolFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `tool` (found on PATH or in /usr/bin) with `arguments` in this directory; throws with its output on
    /// failure, or when it is not installed.
    public func run(_ tool: String, _ arguments: [String]) throws {
        let executable = ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let executable else {
            throw ToolFailure(description: "\(tool) is not installed (make test-deps installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = url
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(text)")
        }
    }
}
