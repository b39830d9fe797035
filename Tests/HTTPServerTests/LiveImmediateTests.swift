import Foundation
import Testing

@testable import HTTPServer

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
            router.immediateResponder = { request in
                request.path == "/cached" ? .text("from the cache") : nil
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
    }
}
