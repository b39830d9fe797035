import Foundation
import Testing

@testable import HTTPServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LiveTests {
    struct LiveImmediateTests {
        @Test("an immediate responder answers from the server thread and the routed handler never runs")
        func immediateAnswer() async throws {
            // setup
            let recorder = Recorder()
            var router = Router()
            router.on(.get, "/cached") { _ in
                recorder.record("handler")
                return .text("from the handler")
            }
            router.on(.get, "/other") { _ in .text("other") }
            let cached = PreparedResponse(.text("from the cache"))
            router.immediateResponder = { request in
                request.path == "/cached" ? cached : nil
            }
            let live = try LiveServer.start(router)

            // act
            let (status, _, data) = try await live.fetch("/cached")
            let (otherStatus, _, other) = try await live.fetch("/other")
            await live.stop()

            // validate
            #expect(status == 200)
            #expect(String(decoding: data, as: UTF8.self) == "from the cache")
            #expect(recorder.count == 0)
            #expect(otherStatus == 200 && String(decoding: other, as: UTF8.self) == "other", "nil falls through to the router")
        }

        @Test("one prepared response goes out whole to many connections at once, with the server's baseline headers and no request id")
        func preparedSharedAcrossConnections() async throws {
            // setup
            var router = Router()
            let body = String((0..<40_000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            let page = PreparedResponse(Response(headers: ["Content-Type": "text/plain", "X-Own": "kept"], body: .bytes(Array(body.utf8))))
            router.immediateResponder = { request in request.path == "/page" ? page : nil }
            let live = try LiveServer.start(router) { $0.responseHeaders = ["X-Baseline": "on", "X-Own": "overridden?"] }

            // act
            let answers = try await withThrowingTaskGroup(of: Answer.self) { group in
                for _ in 0..<48 {
                    group.addTask {
                        let (status, response, data) = try await live.fetch("/page")
                        return Answer(
                            status: status, data: data, baseline: response.value(forHTTPHeaderField: "X-Baseline"),
                            own: response.value(forHTTPHeaderField: "X-Own"), requestID: response.value(forHTTPHeaderField: "X-Request-Id"))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let head = try await live.fetch("/page", method: "HEAD")
            await live.stop()

            // validate
            #expect(answers.count == 48)
            for answer in answers {
                #expect(answer.status == 200)
                #expect(answer.data == Data(body.utf8), "every connection gets every byte")
                #expect(answer.baseline == "on")
                #expect(answer.own == "kept", "the response's own value wins over the baseline")
                #expect(answer.requestID == nil)
            }
            #expect(head.0 == 200 && head.2.isEmpty && head.1.value(forHTTPHeaderField: "Content-Length") == "40000")
        }

        struct Answer: Sendable {
            let status: Int
            let data: Data
            let baseline: String?
            let own: String?
            let requestID: String?
        }
    }
}
