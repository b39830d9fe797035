import Foundation
import FoundationNetworking
import Synchronization
import Testing

@testable import HTTPServer

/// Hostile or broken HTTP on raw sockets: each gets a 4xx or a closed connection, never a crash or a stuck
/// connection, and afterwards the server still answers a normal GET with 200 at once.
extension LiveTests {
    struct MalformedHTTPTests {
        /// A named byte sequence sent on a fresh connection.
        struct Malformed: Sendable, CustomTestStringConvertible {
            let name: String
            let bytes: [UInt8]
            var testDescription: String { name }

            init(_ name: String, _ text: String) {
                self.name = name
                bytes = Array(text.utf8)
            }
        }

        static let cases: [Malformed] = [
            Malformed("garbage request line", "GARBAGE\r\n\r\n"),
            Malformed("control bytes", "\u{1}\u{2}\u{3}\u{7f}\r\n\r\n"),
            Malformed("missing version", "GET /ping\r\nHost: x\r\n\r\n"),
            Malformed("unknown version HTTP/9.9", "GET /ping HTTP/9.9\r\nHost: x\r\n\r\n"),
            Malformed("NUL byte in the target", "GET /pi\0ng HTTP/1.1\r\nHost: x\r\n\r\n"),
            Malformed("NUL byte in the method", "G\0ET /ping HTTP/1.1\r\nHost: x\r\n\r\n"),
            Malformed("NUL byte in a header name", "GET /ping HTTP/1.1\r\nHost: x\r\nX-\0A: ab\r\n\r\n"),
            Malformed("a 100 KB URI", "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"),
            Malformed("one 100 KB header", "GET /ping HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 100_000) + "\r\n\r\n"),
            Malformed(
                "10,000 headers",
                "GET /ping HTTP/1.1\r\nHost: x\r\n" + (0..<10_000).map { "X-H\($0): v\r\n" }.joined() + "\r\n"),
            Malformed("a header line without a colon", "GET /ping HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n"),
            Malformed(
                "Content-Length and Transfer-Encoding together",
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
            Malformed(
                "two different Content-Lengths",
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nhello"),
            Malformed("a negative Content-Length", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\nhello"),
            Malformed(
                "a chunk size that is not hex",
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nhello\r\n0\r\n\r\n"),
            Malformed(
                "a chunk longer than its size",
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n"),
            Malformed(
                "an unknown transfer coding",
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nhello"),
        ]

        private func router() -> Router {
            var router = Router()
            router.on(.get, "/ping") { _ in .text("pong") }
            router.on(.get, "/header") { request in .text(request.headers["X-A"] ?? "-") }
            router.on(.post, "/echo", bodyLimit: 1024) { request in .text("got \(request.body.count)") }
            return router
        }

        private func start() throws -> LiveServer {
            try LiveServer.start(router()) {
                $0.logsProtocolErrors = false
                $0.connectionTimeout = 1
            }
        }

        /// A normal GET on a new connection: its status and how long the answer took.
        private static func probe(_ port: UInt16) throws -> (status: Int, elapsed: Duration) {
            let clock = ContinuousClock()
            let started = clock.now
            let connection = try RawConnection(port: port, receiveTimeout: 5)
            connection.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
            let status = try connection.readResponse().status
            return (status, clock.now - started)
        }

        /// The status of the first response, or how the connection ended without one.
        private static func outcome(of bytes: [UInt8], _ end: RawConnection.End) -> String {
            RawResponse(parsingHeadOf: bytes).map { "\($0.status)" } ?? "\(end)"
        }

        /// A 4xx, the two 5xx that RFC 9112 prescribes for an unknown transfer coding (501) and HTTP version (505),
        /// or a closed connection.
        private static func isRefusal(_ outcome: String) -> Bool {
            Int(outcome).map { (400..<500).contains($0) || $0 == 501 || $0 == 505 }
                ?? (outcome == "closed" || outcome == "reset")
        }

        @Test("malformed requests get a 4xx or a closed connection, and the server then answers a GET at once", arguments: cases)
        func malformedRequest(_ malformed: Malformed) async throws {
            // setup
            let live = try start()
            let port = live.port

            // act
            let (answer, probe) = try await RawConnection.run {
                let connection = try RawConnection(port: port, receiveTimeout: 5)
                connection.send(malformed.bytes)
                let (bytes, end) = connection.readUntilEnd()
                return (Self.outcome(of: bytes, end), try Self.probe(port))
            }
            await live.stop()

            // validate
            #expect(Self.isRefusal(answer), "\(malformed.name): got \(answer)")
            #expect(probe.status == 200)
            #expect(probe.elapsed < .milliseconds(500))
        }

        @Test("a slow-loris client trickling its headers a byte every 200 ms is cut off after the connection timeout")
        func slowLoris() async throws {
            let live = try start()
            let port = live.port

            let (end, elapsed, sent, probe) = try await RawConnection.run {
                let connection = try RawConnection(port: port, receiveTimeout: 0.2)
                let clock = ContinuousClock()
                let started = clock.now
                let trickle = Array("GET /ping HTTP/1.1\r\nHost: x\r\n".utf8) + [UInt8](repeating: 65, count: 100)
                var sent = 0
                var end = RawConnection.End.timedOut
                // One byte, then wait up to 200 ms for the server to close; give up after 5 s.
                while end == .timedOut, sent < trickle.count, clock.now - started < .seconds(5) {
                    guard connection.send([trickle[sent]]) else {
                        end = .reset
                        break
                    }
                    sent += 1
                    end = connection.readUntilEnd().end
                }
                return (end, clock.now - started, sent, try Self.probe(port))
            }
            await live.stop()

            #expect(end == .closed || end == .reset)
            #expect(elapsed >= .milliseconds(900))
            #expect(elapsed < .seconds(3))
            #expect(sent < 20)
            #expect(probe.status == 200)
            #expect(probe.elapsed < .milliseconds(500))
        }

        @Test("a client that sends less body than its Content-Length and closes leaves the server serving")
        func shortBodyThenClose() async throws {
            let live = try start()
            let port = live.port

            let probe = try await RawConnection.run {
                for _ in 0..<20 {
                    let connection = try RawConnection(port: port)
                    connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\nabc")
                }
                return try Self.probe(port)
            }
            // The abandoned requests must not hold the server: their contexts are released by the timeout.
            let deadline = ContinuousClock.now + .seconds(4)
            while live.server.core.openExchanges.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let open = live.server.core.openExchanges.load(ordering: .relaxed)
            await live.stop()

            #expect(probe.status == 200)
            #expect(probe.elapsed < .milliseconds(500))
            #expect(open == 0)
        }

        @Test("garbage pipelined after a good request: the good one is answered 200, the garbage refused")
        func pipelinedGarbage() async throws {
            let live = try start()
            let port = live.port

            let (first, rest, probe) = try await RawConnection.run {
                let connection = try RawConnection(port: port, receiveTimeout: 5)
                connection.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE \u{1}\u{2}\r\n\r\n")
                let first = try connection.readResponse()
                let (bytes, end) = connection.readUntilEnd()
                return (first, Self.outcome(of: bytes, end), try Self.probe(port))
            }
            await live.stop()

            #expect(first.status == 200)
            #expect(String(decoding: first.body, as: UTF8.self) == "pong")
            #expect(Self.isRefusal(rest), "got \(rest)")
            #expect(probe.status == 200)
            #expect(probe.elapsed < .milliseconds(500))
        }

        @Test("a NUL byte in a header value ends the value: MHD 0.9.75 hands over only the bytes before it")
        func nulInHeaderValue() async throws {
            let live = try start()
            let port = live.port

            let (response, probe) = try await RawConnection.run {
                let connection = try RawConnection(port: port, receiveTimeout: 5)
                connection.send("GET /header HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n")
                return (try connection.readResponse(), try Self.probe(port))
            }
            await live.stop()

            // The value's length is reported as strlen, so the NUL cannot even be seen: the value is cut there,
            // consistently, and nothing after it reaches a handler.
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "a")
            #expect(probe.status == 200)
        }

        @Test("a kept-alive connection that sends whole requests keeps being served past the connection timeout")
        func busyConnectionIsNotCut() async throws {
            let live = try start()
            let port = live.port

            let statuses = try await RawConnection.run {
                let connection = try RawConnection(port: port, receiveTimeout: 5)
                var statuses: [Int] = []
                // 8 requests 250 ms apart: 2 s on one connection, twice the 1 s timeout.
                for _ in 0..<8 {
                    connection.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
                    statuses.append(try connection.readResponse().status)
                    Thread.sleep(forTimeInterval: 0.25)
                }
                return statuses
            }
            await live.stop()

            #expect(statuses == Array(repeating: 200, count: 8))
        }
    }
}
