import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for one test: a copy of one that `initdb` made once per test process, in a
/// temporary directory, the server started on a unix socket in that directory (no TCP port), stopped and removed
/// by `stop()`. Debian's postgresql package provides
/// the binaries (the Makefile's TEST_PACKAGES). PostgreSQL refuses to run as root, so under root the cluster is
/// run as the `postgres` user the package made. A watchdog stops the server and removes the directory if the test
/// process dies without calling `stop()`.
public final class PostgresCluster: @unchecked Sendable {
    public let directory: String
    /// Where the server's socket is.
    public var socketDirectory: String { directory }
    private let user: String
    private let binaries: String

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws {
        binaries = try Self.binDirectory()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        user = asRoot ? "postgres" : (ProcessInfo.processInfo.environment["USER"] ?? "postgres")
        if asRoot {
            try Self.run(["/bin/chown", "postgres:postgres", directory])
        }
        let data = directory + "/data"
        do {
            // initdb runs once per test process (it takes seconds on a busy machine); each cluster starts from a copy.
            let template = try Self.template.get()
            try run(["/bin/cp", "-a", template, data])
            try run(
                Self.withoutInheritedDescriptors + [
                    binaries + "/pg_ctl", "-D", data, "-l", directory + "/server.log", "-w", "-t", "30", "start", "-o",
                    "-c listen_addresses='' -k \(directory) -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
                ])
        } catch {
            let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: directory)
            throw Failure(description: "\(error)\n\(log)")
        }
        startWatchdog()
    }

    /// Runs a command with every descriptor past standard error closed. Foundation's `Process` learns that a child
    /// has exited when a socket it hands the child closes; the server pg_ctl starts would inherit that socket and
    /// keep it open for its whole life, so `waitUntilExit` on pg_ctl would never return.
    static let withoutInheritedDescriptors = [
        "/bin/bash", "-c", #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#, "bash",
    ]

    /// A freshly initialised data directory, made once per process and removed by a watchdog when the process ends.
    static let template: Result<String, any Error> = Result {
        let bin = try binDirectory()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pg-template-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        if asRoot { try run(["/bin/chown", "postgres:postgres", directory]) }
        let user = asRoot ? "postgres" : (ProcessInfo.processInfo.environment["USER"] ?? "postgres")
        let prefix = asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        watch(directory, stop: nil)
        try run(prefix + [bin + "/initdb", "-D", directory + "/data", "-A", "trust", "-U", user, "--no-sync", "-E", "UTF8", "--locale=C"])
        return directory + "/data"
    }

    /// A libpq URL for database `name` on this cluster.
    public func url(database: String = "postgres") -> String {
        "postgresql:///\(database)?host=\(socketDirectory)&user=\(user)"
    }

    /// Makes an empty database and returns its URL.
    public func createDatabase(_ name: String) throws -> String {
        try run([binaries + "/createdb", "-h", socketDirectory, "-U", user, name])
        return url(database: name)
    }

    /// Runs `sql` with psql against `database`; returns what it printed (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try Self.run(["/usr/bin/psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-U", user, "-d", database, "-c", sql])
    }

    /// Stops the server at once and starts it again on the same data: every open connection breaks.
    public func restart() throws {
        try run(
            Self.withoutInheritedDescriptors + [
                binaries + "/pg_ctl", "-D", directory + "/data", "-l", directory + "/server.log", "-m", "immediate", "-w", "-t", "30", "restart",
            ])
    }

    /// Stops the server at once and removes the cluster.
    public func stop() {
        _ = try? run([binaries + "/pg_ctl", "-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func run(_ command: [String]) throws {
        let prefix = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        try Self.run(prefix + command)
    }

    private func startWatchdog() { Self.watch(directory, stop: binaries + "/pg_ctl") }

    /// Once this process is gone, whatever ended it: stops the server of `directory`/data (with `stop`, pg_ctl) and
    /// removes the directory.
    static func watch(_ directory: String, stop: String?) {
        let stopLine =
            stop.map { "\(getuid() == 0 ? "runuser -u postgres -- " : "")'\($0)' -D '\(directory)/data' -m immediate stop >/dev/null 2>&1" } ?? ""
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            [ -d '\(directory)' ] || exit 0
            \(stopLine)
            rm -rf '\(directory)'
            """
        // The watcher is started by a shell that exits at once, and that shell is reaped here, so the test process is
        // left with no child of ours: Swift Testing's exit tests wait for any child and spin on one they did not make
        // (a zombie or a live watchdog), which hung RouteGroupTests. Foundation's Process is not used: its
        // waitUntilExit lasts as long as the detached watcher keeps the descriptors it inherited.
        let arguments = ["/bin/sh", "-c", "setsid /bin/sh -c \"$0\" </dev/null >/dev/null 2>&1 &", script]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0 else { return }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// PostgreSQL's server binaries: `pg_config --bindir` (libpq-dev), else the newest under /usr/lib/postgresql.
    static func binDirectory() throws -> String {
        if let bin = try? run(["/usr/bin/pg_config", "--bindir"]).trimmingCharacters(in: .whitespacesAndNewlines),
            FileManager.default.isExecutableFile(atPath: bin + "/initdb")
        {
            return bin
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) })
        where FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/initdb") {
            return "/usr/lib/postgresql/\(version)/bin"
        }
        throw Failure(description: "no PostgreSQL server binaries (initdb, pg_ctl); `make test-deps` installs Debian's postgresql")
    }

    @discardableResult
    static func run(_ command: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(command.joined(separator: " ")) failed (exit \(process.terminationStatus)):\n\(text)")
        }
        return text
    }
}
