import Testing
import WebAddresses

@testable import HTTPServer

/// Issue 25, N9(i): a few addresses can no longer take every connection: past half the server's connections each
/// client holds only its fair share, and one IPv6 /56 is one network.
struct ConnectionCountsTests {
    /// Opens connections from `clients` in turn, each as many as it is let in; returns how many were opened.
    static func fill(_ counts: inout ConnectionCounts, from clients: [IPAddress]) -> Int {
        var opened = 0
        for client in clients {
            while counts.admits(client.clientBlock), counts.open < counts.total {
                counts.opened(client.clientBlock)
                opened += 1
            }
        }
        return opened
    }

    @Test("sixteen IPv4 addresses, which once filled all 1,024 connections, now hold under 600, and a newcomer is let in")
    func fewAddressesCannotFillTheServer() {
        var counts = ConnectionCounts(total: 1024, perClient: 64)
        let attackers = (1...16).map { IPAddress("198.51.100.\($0)")! }
        let held = Self.fill(&counts, from: attackers)
        #expect(held == 8 * 64 + 8 * 8)
        #expect(counts.admits(IPAddress("203.0.113.9")!), "someone else still gets in")
        // It takes about 70 addresses to fill the server now.
        let more = (17...200).map { IPAddress("198.51.100.\($0)")! }
        var needed = 0
        for address in more where counts.open < counts.total {
            _ = Self.fill(&counts, from: [address])
            needed += 1
        }
        #expect(16 + needed >= 70)
    }

    @Test("while the server has room a client holds its full 64; closing gives slots back and ends the crowding")
    func roomyAndReleased() {
        var counts = ConnectionCounts(total: 1024, perClient: 64)
        let client = IPAddress("192.0.2.1")!
        #expect(Self.fill(&counts, from: [client]) == 64)
        #expect(!counts.admits(client))
        counts.closed(client)
        #expect(counts.admits(client))
        #expect(counts.held(by: client) == 63)
        // Crowded by others, the same client is held to the fair share until they leave.
        var crowded = ConnectionCounts(total: 128, perClient: 64)
        let others = IPAddress("192.0.2.2")!
        _ = Self.fill(&crowded, from: [others])
        #expect(Self.fill(&crowded, from: [client]) == 8)
        for _ in 0..<64 { crowded.closed(others) }
        #expect(crowded.admits(client))
    }

    @Test("every /64 of one IPv6 /56 counts toward one network's limit")
    func oneIPv6NetworkIsOne() {
        var counts = ConnectionCounts(total: 4096, perClient: 64)
        let blocks = (0..<256).map { IPAddress("2001:db8:0:\(String($0, radix: 16))::1")! }
        let held = Self.fill(&counts, from: blocks)
        #expect(held == counts.perNetwork)
        #expect(counts.admits(IPAddress("2001:db8:0:100::1")!.clientBlock), "the next /56 is another network")
    }
}
