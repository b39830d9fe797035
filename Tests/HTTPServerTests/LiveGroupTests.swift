import Foundation
import Testing

@testable import HTTPServer

extension LiveTests {
    struct LiveGroupTests {
        private func router(_ runs: Recorder) -> Router {
            var router = Router()
            router.errorResponder = { error, _ in .html("<h1>\(error.status.code)</h1>", status: error.status) }
            router.on(.get, "/page") { _ in
                runs.record("page handler")
                return .text("page")
            }
            let page = PreparedResponse(.text("page from cache"))
            router.immediateResponder = { request in request.path == "/page" ? page : nil }
            router.group("/xrpc") { xrpc in
                xrpc.errorResponder = { error, _ in .json(Array("{\"error\":\"\(error.status.code)\"}".utf8), status: error.status) }
                xrpc.immediateResponder = { request in request.path == "/xrpc/cached" ? PreparedResponse(.text("xrpc from cache")) : nil }
                xrpc.on(.post, "/xrpc/upload", bodyLimit: 100) { request in .text("got \(request.body.count)") }
                xrpc.on(.get, "/xrpc/live") { _ in
                    runs.record("xrpc handler")
                    return .text("live")
                }
            }
            return router
        }

        @Test("the server threads' 413 and unknown paths under /xrpc are rendered by the xrpc group")
        func serverThreadErrorsByGroup() async throws {
            // setup
            let live = try LiveServer.start(router(Recorder()))
            let port = live.port

            // act
            let (tooLarge, missing, page) = try await RawConnection.run {
                let big = try RawConnection(port: port)
                big.send("POST /xrpc/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
                let tooLarge = try big.readResponse()
                let other = try RawConnection(port: port)
                other.send("GET /xrpc/app.nothing HTTP/1.1\r\nHost: x\r\n\r\n")
                let missing = try other.readResponse()
                other.send("GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n")
                return (tooLarge, missing, try other.readResponse())
            }
            await live.stop()

            // validate
            #expect(tooLarge.status == 413)
            #expect(tooLarge.header("Content-Type") == "application/json")
            #expect(String(decoding: tooLarge.body, as: UTF8.self) == #"{"error":"413"}"#)
            #expect(missing.status == 404)
            #expect(String(decoding: missing.body, as: UTF8.self) == #"{"error":"404"}"#)
            #expect(page.status == 404)
            #expect(String(decoding: page.body, as: UTF8.self) == "<h1>404</h1>")
        }

        @Test("each group's immediate responder answers its own paths only")
        func immediateByGroup() async throws {
            let runs = Recorder()
            let live = try LiveServer.start(router(runs))

            let (_, _, page) = try await live.fetch("/page")
            let (_, _, cached) = try await live.fetch("/xrpc/cached")
            let (_, _, handled) = try await live.fetch("/xrpc/live")
            await live.stop()

            #expect(String(decoding: page, as: UTF8.self) == "page from cache")
            #expect(String(decoding: cached, as: UTF8.self) == "xrpc from cache")
            #expect(String(decoding: handled, as: UTF8.self) == "live")
            #expect(runs.all == ["xrpc handler"])
        }
    }
}
