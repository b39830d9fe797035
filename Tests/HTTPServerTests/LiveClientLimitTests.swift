import Foundation
import RateLimits
import TestSupport
import Testing
import WebAddresses

@testable import HTTPServer

extension LiveTests {
    /// Per-client connection limits and the body minimum rate, from several loopback addresses (127.0.0.2, .3, ...
    /// are all this machine on Linux) so one test can play an attacker and a bystander.
    struct LiveClientLimitTests {
        private func router() -> Router {
            var router = Router()
            router.on(.get, "/ping") { _ in .text("pong") }
            router.on(.post, "/upload", bodyLimit: 10_000_000) { request in .text("got \(request.body.count)") }
            return router
        }

        private static func ping(_ connection: RawConnection) throws -> Int {
            connection.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
            return try connection.readResponse().status
        }

        @Test("connections from one client past its limit are closed at once, while another client is served")
        func perClientLimit() async throws {
            // setup: only 127.0.0.1 is a trusted proxy, so 127.0.0.2 and .3 are ordinary clients
            let live = try LiveServer.start(router()) {
                $0.perClientConnectionLimit = 2
                $0.trustedProxies = try! TrustedProxies(parsing: ["127.0.0.1"])
            }
            let port = live.port

            // act
            let (held, third, bystander) = try await RawConnection.run {
                let first = try RawConnection(port: port, source: "127.0.0.2")
                let second = try RawConnection(port: port, source: "127.0.0.2")
                // Both are accepted (answered) before the third knocks.
                var held = [try Self.ping(first), try Self.ping(second)]
                let extra = try RawConnection(port: port, source: "127.0.0.2", receiveTimeout: 5)
                extra.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
                let third = extra.readUntilEnd()
                let bystander = try Self.ping(try RawConnection(port: port, source: "127.0.0.3"))
                held.append(try Self.ping(first))
                return (held, third, bystander)
            }
            await live.stop()

            // validate
            #expect(held == [200, 200, 200], "the two admitted connections keep being served")
            #expect(third.bytes.isEmpty)
            #expect(third.end != .timedOut)
            #expect(bystander == 200)
        }

        @Test("a closed connection gives its slot back to its client")
        func slotsComeBack() async throws {
            let live = try LiveServer.start(router()) {
                $0.perClientConnectionLimit = 1
                $0.trustedProxies = .nobody
            }
            let port = live.port
            let client = try #require(IPAddress("127.0.0.4"))

            let first = try await RawConnection.run { try Self.ping(try RawConnection(port: port, source: "127.0.0.4")) }
            // The first connection was released with its RawConnection; MHD reports the close shortly after.
            try await waitUntil { live.server.core.watch.connections(from: client) == 0 }
            let second = try await RawConnection.run { try Self.ping(try RawConnection(port: port, source: "127.0.0.4")) }
            await live.stop()

            #expect(first == 200)
            #expect(second == 200)
        }

        @Test("trusted proxies are exempt from the per-client limit")
        func proxiesExempt() async throws {
            let live = try LiveServer.start(router()) { $0.perClientConnectionLimit = 2 }
            let port = live.port

            let statuses = try await RawConnection.run {
                let connections = try (0..<6).map { _ in try RawConnection(port: port) }
                return try connections.map { try Self.ping($0) }
            }
            await live.stop()

            #expect(statuses == Array(repeating: 200, count: 6))
        }

        @Test("slow bodies are cut after the grace period, so they cannot hold every connection; a fast body passes")
        func slowBodiesAreCut() async throws {
            // setup: 8 connections in all, a 1 s grace, then at least 20 KiB/s
            let live = try LiveServer.start(router()) {
                $0.connectionLimit = 8
                $0.perClientConnectionLimit = 0
                $0.bodyMinimumRate = 20 * 1024
                $0.bodyRateGrace = .seconds(1)
                $0.logsProtocolErrors = false
            }
            let port = live.port
            let clock = ContinuousClock()
            let started = clock.now

            // act: eight uploads trickling 100 bytes every 100 ms (1 KB/s) take every connection
            let slow = (0..<8).map { _ in
                Task {
                    try await RawConnection.run {
                        let connection = try RawConnection(port: port, source: "127.0.0.2", receiveTimeout: 0.1)
                        connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
                        var end = RawConnection.End.timedOut
                        while end == .timedOut, clock.now - started < .seconds(8) {
                            guard connection.send(String(repeating: "s", count: 100)) else { return (RawConnection.End.reset, clock.now - started) }
                            end = connection.readUntilEnd().end
                        }
                        return (end, clock.now - started)
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            let whileFull = try await RawConnection.run { () -> Int? in
                let connection = try RawConnection(port: port, source: "127.0.0.3", receiveTimeout: 0.5)
                connection.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
                return RawResponse(parsingHeadOf: connection.readUntilEnd().bytes)?.status
            }
            var ends: [(RawConnection.End, Duration)] = []
            for task in slow { ends.append(try await task.value) }
            let (after, fast) = try await RawConnection.run {
                let connection = try RawConnection(port: port, source: "127.0.0.3")
                let status = try Self.ping(connection)
                connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n" + String(repeating: "f", count: 2_000_000))
                return (status, try connection.readResponse())
            }
            await live.stop()

            // validate
            #expect(whileFull == nil, "every connection was taken by a slow upload")
            for (end, elapsed) in ends {
                #expect(end == .closed || end == .reset)
                #expect(elapsed >= .milliseconds(900))
                #expect(elapsed < .seconds(4))
            }
            #expect(after == 200)
            #expect(fast.status == 200)
            #expect(String(decoding: fast.body, as: UTF8.self) == "got 2000000")
        }

        @Test("an untrusted peer rotating X-Forwarded-For is counted as itself; a trusted proxy's hops are honoured")
        func rotatingForwardedFor() async throws {
            // setup: at most 3 requests per client address, counted by clientAddress
            let counts = Shared(WindowCounts(limit: 3, window: 60))
            var router = Router()
            router.on(.get, "/limited") { request in
                let key = request.clientAddress ?? "?"
                let wait = counts.withLock { counts -> Int64? in
                    if let wait = counts.wait(for: [key], now: 0) { return wait }
                    counts.record([key], now: 0)
                    return nil
                }
                guard wait == nil else { throw HTTPError(.tooManyRequests) }
                return .text(key)
            }
            let live = try LiveServer.start(router) { $0.trustedProxies = try! TrustedProxies(parsing: ["127.0.0.1"]) }
            let port = live.port

            // act
            let (attacker, proxied) = try await RawConnection.run {
                var attacker: [String] = []
                var proxied: [String] = []
                let direct = try RawConnection(port: port, source: "127.0.0.2")
                let proxy = try RawConnection(port: port, source: "127.0.0.1")
                for index in 1...5 {
                    for (connection, list) in [(direct, 0), (proxy, 1)] {
                        connection.send("GET /limited HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.\(index)\r\n\r\n")
                        let response = try connection.readResponse()
                        let answer = response.status == 200 ? String(decoding: response.body, as: UTF8.self) : "\(response.status)"
                        if list == 0 { attacker.append(answer) } else { proxied.append(answer) }
                    }
                }
                return (attacker, proxied)
            }
            await live.stop()

            // validate
            #expect(attacker == ["127.0.0.2", "127.0.0.2", "127.0.0.2", "429", "429"])
            #expect(proxied == (1...5).map { "203.0.113.\($0)" })
        }
    }
}
