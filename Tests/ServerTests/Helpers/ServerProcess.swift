import App
import Foundation
import HatkClient
import Outbound
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct ProcessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The real `grain-stories serve` as a child process on a data directory of the test's, for faults that only a
/// separate process can suffer: SIGKILL, and a file size limit.
final class ServerProcess {
    let process: Process
    /// `http://127.0.0.1:<port>`, as the server printed it.
    let base: String
    let dataDirectory: String
    /// Standard output and error of the child.
    let logPath: String

    /// The executable `swift build --build-tests` builds next to the test bundle, or the one GRAIN_STORIES_BINARY
    /// names (`make test` runs the deployment suite on the release build the Debian package ships).
    static func executable() throws -> URL {
        if let named = ProcessInfo.processInfo.environment["GRAIN_STORIES_BINARY"], !named.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: named) else {
                throw ProcessFailure("GRAIN_STORIES_BINARY names \(named), which is not an executable")
            }
            return URL(fileURLWithPath: named)
        }
        let bundleDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let binary = bundleDirectory.appendingPathComponent("grain-stories")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ProcessFailure(
                "the grain-stories executable is not at \(binary.path); build it with `swift build --build-tests` "
                    + "(it is built next to the test bundle) before running this test")
        }
        return binary
    }

    /// `grain-stories users add NAME --password-stdin` on `dataDirectory`.
    static func addUser(_ name: String, password: String, dataDirectory: String) throws {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = ["users", "add", name, "--password-stdin", "--data", dataDirectory, "--key-dir", dataDirectory + "-keys"]
        process.currentDirectoryURL = repositoryRoot
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((password + "\n").utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ProcessFailure("users add \(name) exited with \(process.terminationStatus)") }
    }

    /// Runs `grain-stories ARGUMENTS` to its end (standard input empty, or `input`).
    /// - Parameters:
    ///   - environment: added to the test's own environment.
    ///   - directory: where it runs (default: the repository's root).
    /// - Returns: its exit status and what it printed on standard output and error.
    static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:], directory: String? = nil
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = directory.map { URL(fileURLWithPath: $0) } ?? repositoryRoot
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = handle
        process.standardError = handle
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// Starts `serve --port 0` and waits for its "serving on" line.
    /// - Parameters:
    ///   - keyDirectory: where the sealing key is (default: beside the data directory, `<data>-keys`).
    ///   - extraArguments: more `serve` options.
    ///   - fileSizeLimitKiB: runs it under `ulimit -f` (RLIMIT_FSIZE) when given.
    /// - Parameter visibility: public, since these tests are about the process (faults, backups, first start) and read
    ///   the household as anyone; a household's privacy is PrivateHouseholdTests' and the deployment suite's.
    init(
        dataDirectory: String, keyDirectory: String? = nil, extraArguments: [String] = [], fileSizeLimitKiB: Int? = nil,
        visibility: Audience = .public
    ) async throws {
        self.dataDirectory = dataDirectory
        logPath = dataDirectory + "-\(UUID().uuidString.prefix(8)).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let binary = try Self.executable()
        let arguments =
            [
                "serve", "--host", "127.0.0.1", "--port", "0", "--data", dataDirectory, "--key-dir", keyDirectory ?? dataDirectory + "-keys",
                "--geocoder", "none", "--templates", repositoryRoot.appendingPathComponent("Templates").path,
                "--public", repositoryRoot.appendingPathComponent("Public").path, "--visibility", visibility.rawValue,
            ] + extraArguments
        process = Process()
        if let fileSizeLimitKiB {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -f \(fileSizeLimitKiB) && exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = repositoryRoot
        process.standardOutput = log
        process.standardError = log
        try process.run()
        try log.close()

        let deadline = ContinuousClock.now + .seconds(30)
        var found: String?
        while found == nil {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            found = captures(#"serving on (http://[0-9.:]+)"#, in: text).first
            guard found == nil else { break }
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.terminate()
                throw ProcessFailure("grain-stories did not start; its output:\n\(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        base = found!
    }

    var port: UInt16 { UInt16(base.split(separator: ":").last!)! }

    /// Ends the server at once, as a power cut or the OOM killer would: no handler finishes, no file is closed.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Shuts the server down normally (SIGTERM).
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    var output: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Signs in to the server's authorization server as atproto's localhost development client (as a third-party
    /// client would) and returns a client and credentials for `dev.hatk.*` writes.
    func signInForWrites(handle: String, password: String) async throws -> (HatkClient, DPoPCredentials) {
        try await ServerTests.signInForWrites(base: base, handle: handle, password: password)
    }
}

/// Signs in to the grain-stories at `base` (a child process or a `LiveApp`) as atproto's localhost development
/// client and returns a client and credentials for `dev.hatk.*` writes.
func signInForWrites(base: String, handle: String, password: String) async throws -> (HatkClient, DPoPCredentials) {
    // The server is on loopback, which outbound calls refuse unless its origin is allowed.
    let policy = AddressPolicy.publicOnly.allowing([URL(string: base)!])
    var query = URLComponents()
    query.queryItems = [
        URLQueryItem(name: "redirect_uri", value: "http://127.0.0.1/callback"),
        URLQueryItem(name: "scope", value: OAuthClient.grainScope),
    ]
    let oauth = OAuthClient(
        clientID: "http://localhost?" + (query.percentEncodedQuery ?? ""), redirectURI: "http://127.0.0.1/callback",
        issuer: URL(string: base)!, timeout: 30, policy: policy)
    let (authorizeURL, pending) = try await oauth.beginSignIn(loginHint: handle)
    let browser = Browser(base: base)
    let page = try await browser.get(authorizeURL.absoluteString)
    let requestURI = unescape(try #require(captures(#"name="request_uri" value="([^"]+)""#, in: page.body).first))
    let csrf = unescape(try #require(captures(#"name="csrf" value="([^"]+)""#, in: page.body).first))
    let approved = try await browser.post(
        "/oauth/authorize",
        form: [("request_uri", requestURI), ("csrf", csrf), ("username", String(handle.prefix { $0 != "." })), ("password", password)])
    let location = try #require(approved.location.flatMap(URLComponents.init(string:)), "sign-in answered \(approved.status)")
    let code = try #require(location.queryItems?.first { $0.name == "code" }?.value)
    let tokens = try await oauth.completeSignIn(
        pending: pending, code: code, issuer: location.queryItems?.first { $0.name == "iss" }?.value)
    let client = HatkClient(baseURL: URL(string: base)!, timeout: 60, policy: policy)
    return (client, DPoPCredentials(dpopKey: pending.dpopKey, accessToken: tokens.accessToken))
}

/// A bare TCP connection, for sending a request a piece at a time.
final class RawConnection {
    private let descriptor: Int32

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw ProcessFailure("could not connect to 127.0.0.1:\(port)")
        }
    }

    /// Sends all of `bytes`; false once the peer is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// What the server answers within `seconds`: the head and as much body as its Content-Length says, or what
    /// arrived before the connection closed or the time ran out ("" when nothing did).
    func receive(within seconds: Double) -> String {
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            collected += buffer[0..<count]
            let text = String(decoding: collected, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let length = captures(#"(?i)content-length:\s*([0-9]+)"#, in: String(text[..<end.lowerBound])).first.flatMap { Int($0) } ?? 0
                if text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound) + length <= collected.count { break }
            }
        }
        return String(decoding: collected, as: UTF8.self)
    }

    deinit { close(descriptor) }
}

/// What a write cut short can leave in a data directory: temporary blob files, request bodies streamed to
/// `uploads/`, and image variants whose original never arrived. Empty when the directory is clean.
func blobDebris(in dataDirectory: String) -> [String] {
    let files = FileManager.default
    let temporary = ((try? files.contentsOfDirectory(atPath: dataDirectory + "/tmp")) ?? []).filter { $0.hasSuffix(".part") }
    let bodies = ((try? files.contentsOfDirectory(atPath: dataDirectory + "/uploads")) ?? []).sorted()
    let blobs = Set((try? files.contentsOfDirectory(atPath: dataDirectory + "/blobs")) ?? [])
    let orphans = blobs.filter { name in
        for suffix in [".thumb.jpg", ".avatar.jpg"] where name.hasSuffix(suffix) {
            return !blobs.contains(String(name.dropLast(suffix.count)))
        }
        return false
    }
    return temporary.map { "tmp/" + $0 } + bodies.map { "uploads/" + $0 } + orphans.sorted().map { "blobs/" + $0 }
}
