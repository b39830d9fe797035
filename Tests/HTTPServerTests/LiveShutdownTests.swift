import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

extension LiveTests {
    struct LiveShutdownTests {
        static let stressRounds = Int(ProcessInfo.processInfo.environment["HTTP_STRESS_ROUNDS"] ?? "") ?? 20

        private func router(_ entered: Recorder, handlerDuration: Duration) -> Router {
            var router = Router()
            router.on(.get, "/work") { _ in
                entered.record("work")
                do {
                    try await Task.sleep(for: handlerDuration)
                } catch {
                    entered.record("cancelled")
                    throw error
                }
                entered.record("finished")
                return .text("done")
            }
            return router
        }

        @Test("shutdown returns promptly while handlers are suspended past the grace period, and cancels their tasks")
        func shutdownWithStuckHandlers() async throws {
            // setup
            let entered = Recorder()
            let live = try LiveServer.start(router(entered, handlerDuration: .seconds(60))) {
                $0.shutdownGracePeriod = .milliseconds(300)
            }
            let port = live.port
            let clients = (0..<3).map { _ in
                Task {
                    try await RawConnection.run {
                        let connection = try RawConnection(port: port, receiveTimeout: 10)
                        connection.send("GET /work HTTP/1.1\r\nHost: x\r\n\r\n")
                        return connection.readUntilEnd()
                    }
                }
            }
            try await waitUntil { entered.count == 3 }
            #expect(live.server.core.inFlightCount == 3)

            // MUT
            let clock = ContinuousClock()
            let start = clock.now
            await live.stop()
            let elapsed = clock.now - start

            // validate
            #expect(elapsed >= .milliseconds(250))
            #expect(elapsed < .seconds(5))
            for client in clients {
                let (bytes, end) = try await client.value
                #expect(end != .timedOut)
                // Either the 503 got out before the daemon stopped, or the connection was just closed.
                if let response = RawResponse(parsingHeadOf: bytes) {
                    #expect(response.status == 503)
                }
            }
            try await waitUntil { entered.count == 6 }
            #expect(entered.all.sorted() == ["cancelled", "cancelled", "cancelled", "work", "work", "work"])
        }

        @Test("shutdown closes new connections at once and lets a running handler finish, closing its connection")
        func shutdownDrainsInFlight() async throws {
            // setup
            let entered = Recorder()
            let live = try LiveServer.start(router(entered, handlerDuration: .seconds(1))) {
                $0.shutdownGracePeriod = .seconds(5)
            }
            let port = live.port
            let client = Task {
                try await RawConnection.run {
                    let connection = try RawConnection(port: port)
                    connection.send("GET /work HTTP/1.1\r\nHost: x\r\n\r\n")
                    return try connection.readResponse()
                }
            }
            try await waitUntil { entered.count == 1 }

            // MUT
            let clock = ContinuousClock()
            let start = clock.now
            let stopping = Task { await live.stop() }
            try await waitUntil { !live.server.core.acceptsConnections.load(ordering: .relaxed) }
            let latecomer = try await RawConnection.run {
                let connection = try RawConnection(port: port)
                connection.send("GET /work HTTP/1.1\r\nHost: x\r\n\r\n")
                return connection.readUntilEnd()
            }
            await stopping.value
            let elapsed = clock.now - start
            let response = try await client.value
            let refused = try await RawConnection.run { (try? RawConnection(port: port)) == nil }

            // validate
            #expect(latecomer.bytes.isEmpty)
            #expect(latecomer.end != .timedOut)
            #expect(entered.all == ["work", "finished"])
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "done")
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(elapsed < .seconds(5))
            #expect(refused)
        }

        @Test("servers started and shut down repeatedly under traffic never hang or crash")
        func startStopUnderTraffic() async throws {
            var answered = 0
            for round in 0..<Self.stressRounds {
                // setup
                var router = Router()
                router.on(.get, "/") { _ in .text("ok") }
                router.on(.get, "/nap") { _ in
                    try await Task.sleep(for: .milliseconds(20))
                    return .text("rested")
                }
                let live = try LiveServer.start(router) { $0.shutdownGracePeriod = .milliseconds(50) }
                let port = live.port
                let stop = Atomic<Bool>(false)
                let traffic = Task {
                    try await RawConnection.run {
                        var answered = 0
                        while !stop.load(ordering: .relaxed) {
                            guard let connection = try? RawConnection(port: port, receiveTimeout: 2) else { break }
                            connection.send("GET \(answered % 2 == 0 ? "/" : "/nap") HTTP/1.1\r\nHost: x\r\n\r\n")
                            if (try? connection.readResponse()) != nil {
                                answered += 1
                            }
                        }
                        return answered
                    }
                }

                // MUT
                try await Task.sleep(for: .milliseconds(round % 5 * 3))
                await live.stop()
                stop.store(true, ordering: .relaxed)
                answered += try await traffic.value

                // validate: reaching here means neither shutdown nor the daemon hung
                #expect(live.server.core.state.withLock { $0.daemon == nil })
            }
            #expect(answered > 0)
        }

        @Test("runUntilSignal shuts the server down when a watched signal arrives")
        func signalStopsServer() async throws {
            let live = try LiveServer.start(router(Recorder(), handlerDuration: .zero))
            let port = live.port
            let (ready, readySignal) = AsyncStream.makeStream(of: Void.self)

            let running = Task { await live.server.runUntilSignal([SIGUSR2], onReady: { readySignal.yield() }) }
            for await _ in ready { break }
            // Dispatch registers the source asynchronously, and until then the ignored signal is simply dropped: send
            // it to the process (raise() targets only this thread) until the server reacts.
            let sender = Task {
                while !Task.isCancelled {
                    kill(getpid(), SIGUSR2)
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
            await running.value
            sender.cancel()
            let refused = try await RawConnection.run { (try? RawConnection(port: port)) == nil }

            #expect(refused)
            #expect(live.server.core.state.withLock { $0.daemon == nil })
        }
    }
}
