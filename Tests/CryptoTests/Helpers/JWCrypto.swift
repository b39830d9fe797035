import Foundation
import Testing

/// Runs Python scripts that use jwcrypto, an independent JOSE implementation, for interop checks.
///
/// The Makefile installs jwcrypto before the tests; without it these tests fail with instructions rather than skip,
/// because the interop checks are the only independent evidence that our ES256 output is right.
enum JWCrypto {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `script` with `input` on stdin and returns stdout.
    static func run(_ script: String, input: String = "") throws -> String {
        let process = Process()
        // PYTHON (as in the Makefile) picks the interpreter that has jwcrypto; otherwise python3 from PATH.
        let python = ProcessInfo.processInfo.environment["PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-c", "import jwcrypto\n" + script]
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start python3 (needed for jwcrypto interop tests): \(error)")
        }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        // Read both pipes before waiting so a chatty child cannot block on a full pipe.
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = String(decoding: errors, as: UTF8.self)
        if errorText.contains("No module named 'jwcrypto'") {
            throw Failure(description: "python3 has no jwcrypto: run `pip install jwcrypto` (the Makefile does this)")
        }
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 exited with \(process.terminationStatus): \(errorText)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Runs a script that prints one JSON document and decodes it.
    static func json<T: Decodable>(_ type: T.Type, _ script: String, input: some Encodable) throws -> T {
        let encoded = String(decoding: try JSONEncoder().encode(input), as: UTF8.self)
        let output = try run(script, input: encoded)
        return try JSONDecoder().decode(T.self, from: Data(output.utf8))
    }
}
