import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LiveTests {
    struct LiveConcurrencyTests {
        private static func raiseFileLimit() {
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            if limit.rlim_cur < 8192 {
                limit.rlim_cur = min(limit.rlim_max, 8192)
                setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            }
        }

        @Test(
            "1,000 concurrent requests to a handler sleeping 2 s all finish in seconds while a fast route stays quick")
        func slowHandlersDoNotPinThreads() async throws {
            // setup
            Self.raiseFileLimit()
            let entered = Recorder()
            let inFlight = Mutex((now: 0, peak: 0))
            var router = Router()
            router.on(.get, "/slow") { _ in
                entered.record("slow")
                inFlight.withLock {
                    $0.now += 1
                    $0.peak = max($0.peak, $0.now)
                }
                defer { inFlight.withLock { $0.now -= 1 } }
                try await Task.sleep(for: .seconds(2))
                return .text("slow done")
            }
            router.on(.get, "/fast") { _ in .text("fast") }
            let live = try LiveServer.start(router) { $0.connectionLimit = 4096 }
            let port = live.port
            let clock = ContinuousClock()
            let start = clock.now

            // act: raw sockets, because URLSession spends about 10 ms of client CPU per connection at this scale,
            // which on a small machine would measure the client rather than the server
            let slow = Task {
                try await RawConnection.run {
                    let connections = try (0..<1000).map { _ in try RawConnection(port: port, receiveTimeout: 30) }
                    for connection in connections {
                        connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
                    }
                    return try connections.map { try $0.readResponse().status }
                }
            }
            // Time the fast route once the burst has been taken in, so it measures waiting, not parsing 1,000 requests.
            try await waitUntil(.seconds(20)) { entered.count == 1000 }
            let fastStart = clock.now
            let (fastStatus, _, _) = try await live.fetch("/fast")
            let fastElapsed = clock.now - fastStart
            let statuses = try await slow.value
            let total = clock.now - start
            await live.stop()

            // validate: if each sleep held one of the 2 threads, at most 2 handlers would ever be in flight and the
            // whole run would take 1,000 × 2 s / 2 = 1,000 s. The bounds leave room for a loaded shared machine.
            #expect(statuses.count == 1000)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(entered.count == 1000)
            #expect(inFlight.withLock { $0.peak } > 100)
            #expect(fastStatus == 200)
            #expect(fastElapsed < .milliseconds(1500))  // under one slow handler's 2 s sleep
            #expect(total < .seconds(10))
        }
    }
}
