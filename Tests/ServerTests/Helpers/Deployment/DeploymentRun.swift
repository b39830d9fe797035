import Foundation
import TestSupport

/// One topology of the deployment suite: its temporary directory, the processes and network pieces it starts,
/// and `tearDown()`, which undoes all of them in reverse order whatever happened (call it from `defer`).
final class DeploymentRun: @unchecked Sendable {
    let name: String
    let directory: TemporaryDirectory
    var dataDirectory: String { directory.path + "/data" }
    private var children: [ChildProcess] = []
    private var cleanups: [() -> Void] = []

    init(_ name: String) throws {
        self.name = name
        directory = TemporaryDirectory("deploy-\(name)")
        try FileManager.default.createDirectory(atPath: directory.path + "/data", withIntermediateDirectories: true)
        for photo in [Self.photo, Self.seedPhoto] where !FileManager.default.fileExists(atPath: photo) {
            throw DeploymentFailure("no demo photo at \(photo); run `make demo-photos` (make test does)")
        }
    }

    /// The photo each topology posts, and the one the fake hatk's other member has up.
    static let photo = demoPhotos + "/rocket.jpg"
    static let seedPhoto = demoPhotos + "/coffee.png"

    /// Undoes everything this run made, newest first.
    func tearDown() {
        for child in children.reversed() { child.stop() }
        for cleanup in cleanups.reversed() { cleanup() }
        directory.remove()
    }

    func onTearDown(_ cleanup: @escaping () -> Void) { cleanups.append(cleanup) }

    /// The end of every child's output, for a failure's message.
    var childrenOutput: String {
        children.map { "--- \($0.name) output:\n\($0.output.suffix(3000))" }.joined(separator: "\n")
    }

    /// Starts a child that `tearDown` stops.
    func start(_ name: String, _ command: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        // Python scripts leave no __pycache__ in the source tree.
        let child = try ChildProcess(
            name, command, environment: environment.merging(["PYTHONDONTWRITEBYTECODE": "1"]) { $1 }, logDirectory: directory.path)
        children.append(child)
        return child
    }

    /// `grain-stories users add NAME --password-stdin --data DIR --key-dir DIR-keys`, as the household's owner
    /// would make members.
    func addMember(_ name: String, password: String) throws {
        try ServerProcess.addUser(name, password: password, dataDirectory: dataDirectory)
    }

    /// `grain-stories serve ARGUMENTS --data DIR` from the repository root (where Templates/ and Public/ are, as in
    /// the Docker image's /app), optionally wrapped (`ip netns exec`); returns once it prints its URL. The sealing
    /// key's folder comes from the environment, as the Docker image sets it, and is the one `addMember` used.
    /// - Parameter data: another data directory than the run's own, for a second household.
    func serve(_ arguments: [String], wrappedIn wrapper: [String] = [], data: String? = nil) async throws -> (ChildProcess, String) {
        let binary = try ServerProcess.executable().path
        let data = data ?? dataDirectory
        // Each server its own log: a second household's is named after its folder.
        let name = data == dataDirectory ? "grain-stories" : "grain-stories-" + (data as NSString).lastPathComponent
        let server = try start(
            name, wrapper + [binary, "serve"] + arguments + ["--data", data], environment: ["GRAIN_STORIES_KEY_DIR": data + "-keys"])
        let url = try await server.waitFor(#"grain-stories is serving on (\S+)"#)
        return (server, url)
    }

    /// The browser flows against `base`; returns their report, or throws it with the servers' logs when they fail.
    @discardableResult
    func flows(base: String, environment: [String: String] = [:], servers: [ChildProcess]) async throws -> String {
        var variables = environment
        variables["BASE_URL"] = base
        variables["PHOTO"] = Self.photo
        return try await python("flows.py", environment: variables, servers: servers, what: "the browser flows against \(base)")
    }

    /// Runs one of Tests/ServerTests/Deployment's scripts to the end; returns its report, or throws it with the
    /// servers' logs unless it printed OK and exited 0.
    @discardableResult
    func python(_ script: String, environment: [String: String] = [:], servers: [ChildProcess] = [], what: String) async throws -> String {
        let path = repositoryRoot.appendingPathComponent("Tests/ServerTests/Deployment/" + script).path
        var variables = environment
        variables["PYTHONUNBUFFERED"] = "1"
        let child = try start(script, ["/usr/bin/env", "python3", path], environment: variables)
        // Polled, not awaited on a handler: nothing blocks a cooperative thread, and a run stuck past every timeout
        // of its own is ended.
        let deadline = ContinuousClock.now + .seconds(300)
        while child.process.isRunning {
            if ContinuousClock.now > deadline { child.stop() }
            try await Task.sleep(for: .milliseconds(100))
        }
        let status = child.process.terminationStatus
        let report = child.output
        print("[\(name)] \(what):\n\(report)")
        guard status == 0, report.contains("\nOK") else {
            let logs = servers.map { "--- \($0.name) output:\n\($0.output.suffix(4000))" }.joined(separator: "\n")
            throw DeploymentFailure("\(what) failed in the \(name) topology (exit \(status)):\n\(report)\n\(logs)")
        }
        return report
    }
}
