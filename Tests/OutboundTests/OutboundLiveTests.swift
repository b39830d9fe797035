import Foundation
import Outbound
import Testing
import WebAddresses

/// Against a raw server on 127.0.0.1, which is exactly what the production policy must refuse unless allowed.
@Suite(.serialized)
struct OutboundLiveTests {
    private func client(allowing server: RawHTTPServer?, maximumBodySize: Int = 1 << 20) -> OutboundHTTP {
        var configuration = OutboundHTTP.Configuration(
            policy: AddressPolicy.publicOnly.allowing(server.map { [$0.url] } ?? []))
        configuration.maximumBodySize = maximumBodySize
        return OutboundHTTP(configuration: configuration)
    }

    @Test("a fetch to 127.0.0.1 is refused before any connection without the allowance, and succeeds with it")
    func loopbackNeedsAllowance() async throws {
        // setup
        let server = try RawHTTPServer { _ in .init(body: Array("hello".utf8)) }
        defer { server.stop() }

        // act
        let refused = await #expect(throws: OutboundError.self) {
            _ = try await client(allowing: nil).send(OutboundRequest(url: server.url.appendingPathComponent("x")))
        }
        let connectionsAfterRefusal = server.connections
        let allowed = try await client(allowing: server).send(OutboundRequest(url: server.url.appendingPathComponent("x")))

        // validate
        #expect(refused?.kind == .refused(address: IPAddress("127.0.0.1")!, category: .loopback))
        #expect(refused?.description == "refused: 127.0.0.1 is a loopback address")
        #expect(connectionsAfterRefusal == 0)
        #expect(allowed.status == 200)
        #expect(String(decoding: allowed.body, as: UTF8.self) == "hello")
    }

    @Test("a host name that resolves to loopback is refused by address, even when 127.0.0.1 itself is allowed")
    func localhostRefusedByAddress() async throws {
        let server = try RawHTTPServer { _ in .init() }
        defer { server.stop() }
        let client = client(allowing: server)

        // A kept-alive connection to the allowed 127.0.0.1 must not be lent to the other name either.
        let allowed = try await client.send(OutboundRequest(url: server.url))
        let error = await #expect(throws: OutboundError.self) {
            _ = try await client.send(OutboundRequest(url: URL(string: "http://localhost:\(server.port)/")!))
        }

        guard case .refused(let address, .loopback) = error?.kind else {
            Issue.record("expected a loopback refusal, got \(String(describing: error))")
            return
        }
        #expect(address == IPAddress("127.0.0.1") || address == IPAddress("::1"))
        #expect(error?.description.hasPrefix("refused: localhost resolved to a loopback address") == true)
        #expect(allowed.status == 200)
        #expect(server.connections == 1)
        #expect(server.requests.count == 1)
    }

    @Test("a redirect, here to another loopback server, is returned as the response and never followed")
    func redirectNotFollowed() async throws {
        let target = try RawHTTPServer { _ in .init(body: Array("secret".utf8)) }
        defer { target.stop() }
        let server = try RawHTTPServer { _ in
            .init(status: 302, headers: [("Location", "http://127.0.0.1:\(target.port)/secret")])
        }
        defer { server.stop() }

        let response = try await client(allowing: server).send(OutboundRequest(url: server.url))

        #expect(response.status == 302)
        #expect(response.isRedirect)
        #expect(response.headers["location"] == "http://127.0.0.1:\(target.port)/secret")
        #expect(target.connections == 0)
    }

    @Test("a server slower than the request's timeout fails with a timeout in about that time")
    func timeout() async throws {
        let server = try RawHTTPServer { _ in .init(delay: .seconds(3)) }
        defer { server.stop() }

        let started = ContinuousClock.now
        let error = await #expect(throws: OutboundError.self) {
            _ = try await client(allowing: server).send(OutboundRequest(url: server.url, timeout: .milliseconds(300)))
        }
        let waited = ContinuousClock.now - started

        #expect(error?.kind == .timeout)
        #expect(waited >= .milliseconds(250))
        #expect(waited < .seconds(2))
    }

    @Test("a body over the cap fails, whether its length is declared or the connection's end delimits it")
    func bodyCap() async throws {
        let declared = try RawHTTPServer { _ in .init(body: [UInt8](repeating: 65, count: 5000)) }
        defer { declared.stop() }
        let undeclared = try RawHTTPServer { _ in .init(body: [UInt8](repeating: 65, count: 5000), closeDelimited: true) }
        defer { undeclared.stop() }
        let exact = try RawHTTPServer { _ in .init(body: [UInt8](repeating: 65, count: 1000), closeDelimited: true) }
        defer { exact.stop() }

        for server in [declared, undeclared] {
            let error = await #expect(throws: OutboundError.self) {
                _ = try await client(allowing: server, maximumBodySize: 1000).send(OutboundRequest(url: server.url))
            }
            #expect(error?.kind == .bodyTooLarge(limit: 1000))
        }
        let atLimit = try await client(allowing: exact, maximumBodySize: 1000).send(OutboundRequest(url: exact.url))
        #expect(atLimit.body.count == 1000)
    }

    @Test("sequential requests reuse one kept-alive connection")
    func keepAlive() async throws {
        let server = try RawHTTPServer { request in .init(body: Array(request.target.utf8)) }
        defer { server.stop() }
        let client = client(allowing: server)

        var bodies: [String] = []
        for index in 0..<5 {
            let response = try await client.send(OutboundRequest(url: server.url.appendingPathComponent("n\(index)")))
            bodies.append(String(decoding: response.body, as: UTF8.self))
        }

        #expect(bodies == ["/n0", "/n1", "/n2", "/n3", "/n4"])
        #expect(server.connections == 1)
    }

    @Test("a client that keeps no connection open makes one per request and closes it when the answer is in")
    func noKeptConnection() async throws {
        let server = try RawHTTPServer { request in .init(body: Array(request.target.utf8)) }
        defer { server.stop() }
        var configuration = OutboundHTTP.Configuration(policy: AddressPolicy.publicOnly.allowing([server.url]))
        configuration.keepsConnectionsOpen = false
        let client = OutboundHTTP(configuration: configuration)
        for index in 0..<3 {
            let response = try await client.send(OutboundRequest(url: server.url.appendingPathComponent("n\(index)")))
            #expect(String(decoding: response.body, as: UTF8.self) == "/n\(index)")
            // The server sees the client's end close once the answer is in, not when the client goes away.
            let deadline = ContinuousClock.now + .seconds(5)
            while server.endedConnections < index + 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(server.endedConnections == index + 1, "connection \(index) still open after its answer")
        }
        #expect(server.connections == 3)
        // A client that keeps its connections still makes one for all its requests.
        let keeping = self.client(allowing: server)
        for index in 0..<3 { _ = try await keeping.send(OutboundRequest(url: server.url.appendingPathComponent("k\(index)"))) }
        #expect(server.connections == 4)
    }

    @Test("method, headers and a binary body go out as given; response headers are found in any case")
    func roundTrip() async throws {
        let server = try RawHTTPServer { request in
            .init(status: 201, headers: [("DPoP-Nonce", "n-1"), ("X-Echo", request.headers["x-test"] ?? "")], body: request.body)
        }
        defer { server.stop() }
        let body = Data((0...255).map { UInt8($0) })

        let response = try await client(allowing: server).send(
            OutboundRequest(
                method: "PUT", url: server.url.appendingPathComponent("thing"),
                headers: ["X-Test": "value 1", "Content-Type": "application/octet-stream"], body: .bytes(body)))

        let received = try #require(server.requests.first)
        #expect(received.method == "PUT")
        #expect(received.target == "/thing")
        #expect(received.headers["content-type"] == "application/octet-stream")
        #expect(received.headers["expect"] == nil)
        #expect(received.headers["cookie"] == nil)
        #expect(response.status == 201)
        #expect(response.body == body)
        #expect(response.headers["dpop-nonce"] == "n-1")
        #expect(response.headers["DPOP-NONCE"] == "n-1")
        #expect(response.headers["x-echo"] == "value 1")
    }

    @Test("a file body is read as it is sent: every byte arrives with its length, and a POST repeated on a kept connection sends it again")
    func fileBody() async throws {
        let server = try RawHTTPServer { request in .init(body: Array("\(request.body.count)".utf8)) }
        defer { server.stop() }
        // Larger than curl's upload buffer, so the body is read in many pieces.
        var bytes = [UInt8](repeating: 0, count: 3_000_001)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbound-\(UUID().uuidString).bin").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { unlink(path) }
        let client = client(allowing: server)

        for _ in 0..<2 {
            let response = try await client.send(
                OutboundRequest(method: "POST", url: server.url, headers: ["Content-Type": "video/mp4"], body: .file(path: path)))
            #expect(String(decoding: response.body, as: UTF8.self) == "3000001")
        }
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.body == bytes })
        #expect(server.requests.map { $0.headers["content-length"] } == ["3000001", "3000001"])
        #expect(server.requests.allSatisfy { $0.headers["content-type"] == "video/mp4" })
    }

    @Test("a file body that cannot be opened fails the call before anything is sent")
    func missingFileBody() async throws {
        let server = try RawHTTPServer { _ in .init(body: []) }
        defer { server.stop() }
        let missing = "/nonexistent/\(UUID().uuidString).mp4"

        await #expect {
            _ = try await client(allowing: server).send(OutboundRequest(method: "POST", url: server.url, body: .file(path: missing)))
        } throws: { error in
            guard let error = error as? OutboundError, case .invalidRequest = error.kind else { return false }
            return error.description.contains(missing)
        }
        await #expect(throws: OutboundError.self) {
            _ = try await client(allowing: server).send(
                OutboundRequest(method: "POST", url: server.url, body: .file(path: FileManager.default.temporaryDirectory.path)))
        }
        #expect(server.requests.isEmpty)
    }

    @Test("a header value with a line break is refused before anything is sent")
    func headerInjection() async throws {
        let server = try RawHTTPServer { _ in .init() }
        defer { server.stop() }

        let error = await #expect(throws: OutboundError.self) {
            _ = try await client(allowing: server).send(
                OutboundRequest(url: server.url, headers: ["X-A": "1\r\nX-Injected: 2"]))
        }

        #expect(error?.kind == .invalidRequest)
        #expect(server.connections == 0)
    }

    @Test("cancelling the caller's task stops a slow transfer at once")
    func cancellation() async throws {
        let server = try RawHTTPServer { _ in .init(delay: .seconds(3)) }
        defer { server.stop() }
        let client = client(allowing: server)

        let started = ContinuousClock.now
        let task = Task { try await client.send(OutboundRequest(url: server.url, timeout: .seconds(10))) }
        while server.requests.isEmpty, ContinuousClock.now - started < .seconds(2) {
            try await Task.sleep(for: .milliseconds(5))
        }
        task.cancel()
        let result = await task.result

        #expect(throws: OutboundError.self) { try result.get() }
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test("many concurrent requests all complete on the one transfer thread")
    func concurrentRequests() async throws {
        let server = try RawHTTPServer { request in .init(body: Array(request.target.utf8), delay: .milliseconds(50)) }
        defer { server.stop() }
        let client = client(allowing: server)

        let started = ContinuousClock.now
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let response = try await client.send(OutboundRequest(url: server.url.appendingPathComponent("\(index)")))
                    return String(decoding: response.body, as: UTF8.self)
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }

        #expect(bodies == Set((0..<20).map { "/\($0)" }))
        // Serially this would take 20 × 50 ms.
        #expect(ContinuousClock.now - started < .milliseconds(900))
    }
}
