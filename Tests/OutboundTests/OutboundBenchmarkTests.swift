import Foundation
import HTTPServer
import Outbound
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 2,000 sequential GETs to a loopback HTTPServer with URLSession and with OutboundHTTP; prints both and fails if
/// OutboundHTTP is slower. Opt-in, as timing on a shared machine is noise for the normal suite:
/// `OUTBOUND_BENCH=1 swift test --filter OutboundBenchmarkTests` (add `-c release -Xswiftc -enable-testing`).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["OUTBOUND_BENCH"] != nil))
struct OutboundBenchmarkTests {
    @Test("OutboundHTTP is at least as fast as URLSession for sequential loopback GETs")
    func sequentialGETs() async throws {
        // setup
        let body = Array(String(repeating: #"{"authors":[]}"#, count: 40).utf8)
        var router = Router()
        router.on(.get, "/xrpc/ping") { _ in
            Response(status: .ok, headers: ["Content-Type": "application/json"], body: .bytes(body))
        }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threadCount = 2
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        let url = URL(string: "http://127.0.0.1:\(server.port)/xrpc/ping")!
        let session = URLSession(configuration: .ephemeral)
        let outbound = OutboundHTTP(policy: AddressPolicy.publicOnly.allowing([url]))

        // act
        let viaURLSession = try await Self.time(2000) { try await session.data(for: URLRequest(url: url)).0.count }
        let viaOutbound = try await Self.time(2000) { try await outbound.send(OutboundRequest(url: url)).body.count }
        session.invalidateAndCancel()
        await server.shutdown()

        // validate
        print("2,000 sequential GETs: URLSession \(viaURLSession), OutboundHTTP \(viaOutbound)")
        #expect(viaOutbound <= viaURLSession)
    }

    /// The time `count` sequential calls take, after a warm-up of 100.
    private static func time(_ count: Int, _ fetch: () async throws -> Int) async throws -> Duration {
        for _ in 0..<100 { _ = try await fetch() }
        let clock = ContinuousClock()
        let started = clock.now
        for _ in 0..<count {
            guard try await fetch() > 0 else { throw CancellationError() }
        }
        return clock.now - started
    }
}
