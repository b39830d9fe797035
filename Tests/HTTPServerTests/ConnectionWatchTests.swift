import Testing
import WebAddresses

@testable import HTTPServer

/// The deadlines the sweeper applies, checked with a made-up clock.
struct ConnectionWatchTests {
    private func watch(rate: Int, grace: Duration) -> ConnectionWatch {
        var configuration = ServerConfiguration()
        configuration.bodyMinimumRate = rate
        configuration.bodyRateGrace = grace
        return ConnectionWatch(configuration: configuration)
    }

    @Test("a body may take the grace period plus one second per minimum-rate bytes, and no longer")
    func minimumRate() {
        let watch = watch(rate: 1000, grace: .seconds(2))
        let start: UInt64 = 5_000_000_000
        let second: UInt64 = 1_000_000_000

        #expect(!watch.bodyIsTooSlow(start: start, bytes: 0, now: start + 2 * second), "within the grace")
        #expect(watch.bodyIsTooSlow(start: start, bytes: 0, now: start + 2 * second + 1), "nothing after the grace")
        #expect(!watch.bodyIsTooSlow(start: start, bytes: 3000, now: start + 5 * second), "exactly the rate")
        #expect(watch.bodyIsTooSlow(start: start, bytes: 2999, now: start + 5 * second + second / 1000 * 2))
        #expect(!watch.bodyIsTooSlow(start: start, bytes: 1500, now: start + 3 * second + second / 2))
        #expect(!watch.bodyIsTooSlow(start: 0, bytes: 0, now: start + 100 * second), "no body being received")
        #expect(!self.watch(rate: 0, grace: .zero).bodyIsTooSlow(start: start, bytes: 0, now: start + 100 * second))
    }

    @Test("connections count against the client's address, an IPv6 client's whole /64, and never against a trusted proxy")
    func connectionsCountPerClientBlock() throws {
        var configuration = ServerConfiguration()
        configuration.perClientConnectionLimit = 4
        configuration.trustedProxies = try TrustedProxies(parsing: ["2001:db8:ffff::1"])
        let watch = ConnectionWatch(configuration: configuration)
        let counted = { (text: String) in watch.countedAddress(IPAddress(text)) }

        #expect(counted("2001:db8:1:2::a") == counted("2001:db8:1:2:ffff::b"))
        #expect(counted("2001:db8:1:2::a") == IPAddress("2001:db8:1:2::"))
        #expect(counted("2001:db8:1:2::a") != counted("2001:db8:1:3::a"))
        #expect(counted("192.168.1.20") == IPAddress("192.168.1.20"))
        #expect(counted("192.168.1.20") != counted("192.168.1.21"))
        #expect(counted("2001:db8:ffff::1") == nil, "a trusted proxy is exempt")
        #expect(counted("2001:db8:ffff::2") != nil, "its neighbours are not")
    }
}
