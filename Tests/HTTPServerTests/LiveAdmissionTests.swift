import Foundation
import Testing

@testable import HTTPServer

extension LiveTests {
    /// Admission checks: a large-body route decides from the head alone, before any body byte is read.
    struct LiveAdmissionTests {
        /// POST /create wants a session cookie; the xrpc write wants `Authorization: DPoP`. Both take big bodies.
        private func router(_ runs: Recorder, heads: Recorder, directory: String) -> Router {
            var router = Router()
            router.errorResponder = { error, _ in .html("<p>\(error.message)</p>", status: error.status) }
            router.on(
                .post, "/create", bodyLimit: 30_000_000, bodyStorage: .temporaryFile(directory: directory),
                admission: { head in
                    heads.record("\(head.method) \(head.path)?\(head.query) from \(head.remoteAddress ?? "?")")
                    return head.cookies["sid"] == "good" ? nil : HTTPError(.unauthorized, "Sign in to post a story.")
                }
            ) { request in
                runs.record("create \(request.body.count)")
                return .text("created \(request.body.count)")
            }
            router.group("/xrpc") { xrpc in
                xrpc.errorResponder = { error, _ in .json(Array("{\"error\":\"\(error.message)\"}".utf8), status: error.status) }
                xrpc.on(
                    .post, "/xrpc/dev.hatk.uploadBlob", bodyLimit: 5_000_000,
                    admission: { head in
                        head.headers["Authorization"]?.hasPrefix("DPoP ") == true
                            ? nil : HTTPError(.unauthorized, "AuthenticationRequired", headers: ["WWW-Authenticate": "DPoP"])
                    }
                ) { request in
                    runs.record("blob \(request.body.count)")
                    return .text("blob \(request.body.count)")
                }
            }
            return router
        }

        @Test("a refused head is answered at once with Connection: close, the body never read and no file made")
        func refusedAtOnce() async throws {
            // setup
            let directory = try TemporaryDirectory()
            let runs = Recorder()
            let heads = Recorder()
            let live = try LiveServer.start(router(runs, heads: heads, directory: directory.path))
            let port = live.port

            // act: only the head of a 25 MB upload is sent; the answer must come without it
            let (create, blob, elapsed) = try await RawConnection.run {
                let clock = ContinuousClock()
                let started = clock.now
                let first = try RawConnection(port: port, receiveTimeout: 5)
                first.send(
                    "POST /create?from=form HTTP/1.1\r\nHost: x\r\nCookie: sid=stolen\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 25000000\r\n\r\n"
                )
                let create = try first.readResponse()
                let second = try RawConnection(port: port, receiveTimeout: 5)
                second.send("POST /xrpc/dev.hatk.uploadBlob HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer x\r\nContent-Length: 4000000\r\n\r\n")
                return (create, try second.readResponse(), clock.now - started)
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            await live.stop()

            // validate
            #expect(create.status == 401)
            #expect(create.header("Connection")?.lowercased() == "close")
            #expect(String(decoding: create.body, as: UTF8.self) == "<p>Sign in to post a story.</p>")
            #expect(blob.status == 401)
            #expect(blob.header("WWW-Authenticate") == "DPoP")
            #expect(String(decoding: blob.body, as: UTF8.self) == #"{"error":"AuthenticationRequired"}"#)
            #expect(elapsed < .seconds(2))
            #expect(runs.count == 0)
            #expect(files.isEmpty)
            #expect(heads.all == ["POST /create?from=form from 127.0.0.1"])
        }

        @Test("an admitted head goes on to read its body and run the handler")
        func admittedReadsBody() async throws {
            let directory = try TemporaryDirectory()
            let runs = Recorder()
            let live = try LiveServer.start(router(runs, heads: Recorder(), directory: directory.path))
            let port = live.port
            let body = String(repeating: "p", count: 300_000)

            let (create, blob) = try await RawConnection.run {
                let connection = try RawConnection(port: port)
                connection.send("POST /create HTTP/1.1\r\nHost: x\r\nCookie: sid=good\r\nContent-Length: 300000\r\n\r\n" + body)
                let create = try connection.readResponse()
                connection.send(
                    "POST /xrpc/dev.hatk.uploadBlob HTTP/1.1\r\nHost: x\r\nAuthorization: DPoP token\r\nContent-Length: 300000\r\n\r\n" + body)
                return (create, try connection.readResponse())
            }
            await live.stop()

            #expect(create.status == 200)
            #expect(String(decoding: create.body, as: UTF8.self) == "created 300000")
            #expect(create.header("Connection")?.lowercased() != "close")
            #expect(blob.status == 200)
            #expect(runs.all == ["create 300000", "blob 300000"])
        }

        @Test("a client that asks for 100-continue gets the refusal instead of the go-ahead, and an admitted one the go-ahead")
        func expectContinue() async throws {
            let directory = try TemporaryDirectory()
            let runs = Recorder()
            let live = try LiveServer.start(router(runs, heads: Recorder(), directory: directory.path))
            let port = live.port

            let (refused, interim, admitted) = try await RawConnection.run {
                let first = try RawConnection(port: port, receiveTimeout: 5)
                first.send("POST /create HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 9000000\r\n\r\n")
                let refused = try first.readResponse()
                let second = try RawConnection(port: port, receiveTimeout: 5)
                second.send("POST /create HTTP/1.1\r\nHost: x\r\nCookie: sid=good\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
                let interim = try second.readResponse(bodyExpected: false)
                second.send("hello")
                return (refused, interim, try second.readResponse())
            }
            await live.stop()

            #expect(refused.status == 401)
            #expect(interim.status == 100)
            #expect(admitted.status == 200)
            #expect(runs.all == ["create 5"])
        }

        @Test("a client that sends its body at once behind a refused head still gets the refusal")
        func refusedWithBodyInFlight() async throws {
            let directory = try TemporaryDirectory()
            let runs = Recorder()
            let live = try LiveServer.start(router(runs, heads: Recorder(), directory: directory.path))
            let port = live.port

            let response = try await RawConnection.run {
                let connection = try RawConnection(port: port, receiveTimeout: 5)
                connection.send(
                    "POST /create HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n" + String(repeating: "b", count: 20000))
                return try connection.readResponse()
            }
            await live.stop()

            #expect(response.status == 401)
            #expect(runs.count == 0)
        }
    }
}
