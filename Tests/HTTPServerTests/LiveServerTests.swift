import Foundation
import Testing

@testable import HTTPServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LiveTests {
    struct LiveServerTests {
        private func router() -> Router {
            var router = Router()
            router.on(.get, "/hello/:name") { request in
                let name = request.parameters["name"] ?? "?"
                return .text("hello \(name) \(request.query("greeting") ?? "-") \(request.remoteAddress ?? "?")")
            }
            router.on(.get, "/page") { _ in
                Response(
                    status: .ok, headers: ["Content-Type": "text/plain", "X-Extra": "1"],
                    body: .bytes(Array("0123456789".utf8)))
            }
            router.on(.post, "/echo", bodyLimit: 2 * 1024 * 1024) { request in
                var hasher = FNV1a()
                hasher.combine(request.body.inMemory ?? [])
                return .text("\(request.body.count) \(hasher.hexDigest)")
            }
            return router
        }

        @Test("a GET round trip returns the handler's status, headers and body, plus Date and no Server header")
        func getRoundTrip() async throws {
            // setup
            let live = try LiveServer.start(router())

            // act
            let (status, response, data) = try await live.fetch("/hello/caf%C3%A9?greeting=hi+there")
            let (missing, _, _) = try await live.fetch("/nowhere")
            await live.stop()

            // validate
            #expect(status == 200)
            #expect(String(decoding: data, as: UTF8.self) == "hello café hi there 127.0.0.1")
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
            #expect(response.value(forHTTPHeaderField: "Date") != nil)
            #expect(response.value(forHTTPHeaderField: "Server") == nil)
            #expect(missing == 404)
        }

        @Test("two requests on one connection are both answered and the connection stays open")
        func keepAlive() async throws {
            let live = try LiveServer.start(router())
            let port = live.port

            let (first, second) = try await RawConnection.run {
                let connection = try RawConnection(port: port)
                connection.send("GET /page HTTP/1.1\r\nHost: x\r\n\r\n")
                let first = try connection.readResponse()
                connection.send("GET /hello/again HTTP/1.1\r\nHost: x\r\n\r\n")
                let second = try connection.readResponse()
                return (first, second)
            }
            await live.stop()

            #expect(first.status == 200)
            #expect(String(decoding: first.body, as: UTF8.self) == "0123456789")
            #expect(first.header("Connection")?.lowercased() != "close")
            #expect(first.header("X-Extra") == "1")
            #expect(second.status == 200)
            #expect(String(decoding: second.body, as: UTF8.self).hasPrefix("hello again"))
        }

        @Test("HEAD gets the GET route's headers, including Content-Length, and no body")
        func headHasNoBody() async throws {
            let live = try LiveServer.start(router())
            let port = live.port

            let (head, next) = try await RawConnection.run {
                let connection = try RawConnection(port: port)
                connection.send("HEAD /page HTTP/1.1\r\nHost: x\r\n\r\n")
                let head = try connection.readResponse(bodyExpected: false)
                // If HEAD had sent a body, its bytes would show up in front of this response's status line.
                connection.send("GET /page HTTP/1.1\r\nHost: x\r\n\r\n")
                return (head, try connection.readResponse())
            }
            await live.stop()

            #expect(head.status == 200)
            #expect(head.contentLength == 10)
            #expect(head.header("X-Extra") == "1")
            #expect(head.body.isEmpty)
            #expect(next.status == 200)
            #expect(String(decoding: next.body, as: UTF8.self) == "0123456789")
        }

        @Test("a 1 MB POST body arrives intact under a 2 MB limit")
        func largeBodyIntact() async throws {
            let live = try LiveServer.start(router())
            // A cheap pseudo-random pattern: no byte repeats its neighbour's position, so reordering would show.
            var state: UInt32 = 2_463_534_242
            let body = (0..<1_000_000).map { _ -> UInt8 in
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                return UInt8(truncatingIfNeeded: state)
            }
            var hasher = FNV1a()
            hasher.combine(body)

            let (status, _, data) = try await live.fetch("/echo", method: "POST", body: Data(body))
            await live.stop()

            #expect(status == 200)
            #expect(String(decoding: data, as: UTF8.self) == "1000000 \(hasher.hexDigest)")
        }

        @Test("a file body is streamed from disk with its length; a missing file becomes 404")
        func fileBody() async throws {
            let directory = try TemporaryDirectory()
            let path = try directory.write("report.txt", "file contents here")
            var router = Router()
            router.on(.get, "/file") { _ in Response(body: .file(path: path, length: 18)) }
            router.on(.get, "/gone") { _ in Response(body: .file(path: path + ".missing", length: 5)) }
            router.on(.get, "/part") { _ in Response(status: .partialContent, body: .file(path: path, offset: 5, length: 8)) }
            router.on(.get, "/tail") { _ in Response(body: .file(path: path, offset: 15, length: 100)) }
            let live = try LiveServer.start(router)

            let (status, response, data) = try await live.fetch("/file")
            let (missing, _, _) = try await live.fetch("/gone")
            let (partStatus, partResponse, part) = try await live.fetch("/part")
            let (_, tailResponse, tail) = try await live.fetch("/tail")
            await live.stop()

            #expect(partStatus == 206 && String(decoding: part, as: UTF8.self) == "contents")
            #expect(partResponse.value(forHTTPHeaderField: "Content-Length") == "8")
            #expect(String(decoding: tail, as: UTF8.self) == "ere", "a length past the file's end stops at its end")
            #expect(tailResponse.value(forHTTPHeaderField: "Content-Length") == "3")
            #expect(status == 200)
            #expect(String(decoding: data, as: UTF8.self) == "file contents here")
            #expect(response.value(forHTTPHeaderField: "Content-Length") == "18")
            #expect(missing == 404)
        }

        @Test("a server bound to ::1 answers over IPv6 and reports the client as ::1")
        func ipv6() async throws {
            let live = try LiveServer.start(router()) { $0.host = "::1" }
            let port = live.port

            // Raw socket: FoundationNetworking rejects IPv6-literal URLs such as http://[::1]:8080/.
            let response = try await RawConnection.run {
                let connection = try RawConnection(port: port, host: "::1")
                connection.send("GET /hello/v6 HTTP/1.1\r\nHost: x\r\n\r\n")
                return try connection.readResponse()
            }
            await live.stop()

            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "hello v6 - ::1")
        }

        @Test("response header values carrying line breaks are dropped instead of splitting the response")
        func headerInjectionIsDropped() async throws {
            var router = Router()
            router.on(.get, "/inject") { _ in
                var response = Response.text("body")
                response.headers["X-Safe"] = "yes"
                response.headers["X-Evil"] = "a\r\nSet-Cookie: stolen=1"
                return response
            }
            let live = try LiveServer.start(router) { $0.logsProtocolErrors = false }
            let port = live.port

            let response = try await RawConnection.run {
                let connection = try RawConnection(port: port)
                connection.send("GET /inject HTTP/1.1\r\nHost: x\r\n\r\n")
                return try connection.readResponse()
            }
            await live.stop()

            #expect(response.status == 200)
            #expect(response.header("X-Safe") == "yes")
            #expect(response.header("X-Evil") == nil)
            #expect(response.header("Set-Cookie") == nil)
            #expect(String(decoding: response.body, as: UTF8.self) == "body")
        }

        @Test("binding a port that is already in use fails with a clear error")
        func portInUse() async throws {
            let first = try LiveServer.start(router())
            var configuration = ServerConfiguration()
            configuration.port = first.port
            let second = HTTPServer(configuration: configuration, router: router())

            let error = #expect(throws: ServerError.self) { try second.start() }
            await first.stop()

            #expect(error?.isAddressInUse == true)
            #expect(error?.description == "Cannot listen on 127.0.0.1:\(first.port): the port is already in use")
        }

        @Test("a malformed request line or oversized headers get a 4xx or a closed connection, and serving goes on")
        func malformedInput() async throws {
            let live = try LiveServer.start(router()) {
                $0.connectionMemoryLimit = 16 * 1024
                $0.logsProtocolErrors = false
            }
            let port = live.port

            let answers = try await RawConnection.run {
                var answers: [String] = []
                for request in [
                    "GARBAGE\r\n\r\n",
                    "GET /page HTTP/9.9\r\nHost: x\r\n\r\n",
                    "GET /page HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 40_000))\r\n\r\n",
                    "GET /page HTTP/1.1\r\nno colon here\r\n\r\n",
                    "\u{1}\u{2}\u{3}\r\n\r\n",
                ] {
                    let connection = try RawConnection(port: port)
                    connection.send(request)
                    let (bytes, end) = connection.readUntilEnd()
                    let status = RawResponse(parsingHeadOf: bytes)?.status
                    answers.append(status.map { "\($0)" } ?? "\(end)")
                }
                return answers
            }
            let (after, _, _) = try await live.fetch("/page")
            await live.stop()

            // Each is refused: 400, 431 or 505 (unsupported version), or the connection is simply closed.
            for answer in answers {
                #expect(Int(answer).map { $0 >= 400 } ?? (answer == "closed" || answer == "reset"), "got \(answer)")
            }
            #expect(after == 200)
        }
    }
}
