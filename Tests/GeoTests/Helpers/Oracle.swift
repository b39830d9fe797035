import Foundation

/// Expected answers from Uber's h3, produced by running `oracleScript` under Python once per test run.
struct Oracle: Sendable {
    struct Point: Sendable {
        var latitude: Double
        var longitude: Double
        var resolution: Int
        var cell: String
    }
    struct Center: Sendable {
        var cell: String
        var latitude: Double
        var longitude: Double
    }
    struct Parent: Sendable {
        var cell: String
        var resolution: Int
        var parent: String
    }

    var points: [Point] = []
    var centers: [Center] = []
    var parents: [Parent] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the script once; later calls share the result.
    static let shared: Result<Oracle, Failure> = Result { try load() }.mapError { $0 as? Failure ?? Failure(description: "\($0)") }

    private static func load() throws -> Oracle {
        let python = ProcessInfo.processInfo.environment["PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("geo-h3-oracle-\(getpid()).py")
        try oracleScript.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script.path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            throw Failure(description: "cannot run \(python): \(error)")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "h3 oracle (\(python)) exited \(process.terminationStatus): \(errors). "
                    + "Install Uber's h3 for Python: pip install 'h3>=4,<5'"
            )
        }
        return try parse(data)
    }

    private static func parse(_ data: Data) throws -> Oracle {
        var oracle = Oracle()
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let f = line.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            switch (f.first, f.count) {
            case ("P", 5):
                guard let lat = Double(f[1]), let lng = Double(f[2]), let res = Int(f[3]) else { break }
                oracle.points.append(Point(latitude: lat, longitude: lng, resolution: res, cell: f[4]))
                continue
            case ("C", 4):
                guard let lat = Double(f[2]), let lng = Double(f[3]) else { break }
                oracle.centers.append(Center(cell: f[1], latitude: lat, longitude: lng))
                continue
            case ("Q", 4):
                guard let res = Int(f[2]) else { break }
                oracle.parents.append(Parent(cell: f[1], resolution: res, parent: f[3]))
                continue
            default:
                break
            }
            throw Failure(description: "unreadable oracle line: \(String(decoding: line, as: UTF8.self))")
        }
        return oracle
    }
}
