import WebAddresses

/// The open connections each client holds, and whether one more from a client is let in: a value, so the policy is
/// tested without sockets.
///
/// A client (an IPv4 address, an IPv6 /64) may hold `perClient` connections while the server has room. Once half of
/// `total` is taken, a client may hold only its fair share, `crowdedShare`, so a few addresses cannot fill the rest:
/// 16 addresses at 64 each once filled all 1,024 slots, where it now takes about 70. An IPv6 /56 (what one
/// subscriber is given, 256 /64s) counts as one network and holds at most `perNetwork`.
struct ConnectionCounts: Sendable, Equatable {
    /// Connections the server holds at most.
    let total: Int
    /// Connections one client may hold while the server has room; 0 for no limit.
    let perClient: Int
    /// Connections one client may hold once half of `total` is taken.
    var crowdedShare: Int { min(perClient, 8) }
    /// Connections one IPv6 /56 may hold.
    var perNetwork: Int { perClient * 2 }

    private(set) var open = 0
    private(set) var byClient: [IPAddress: Int] = [:]
    private(set) var byNetwork: [IPAddress: Int] = [:]

    init(total: Int, perClient: Int) {
        self.total = total
        self.perClient = perClient
    }

    /// Whether a new connection from `client` (already its client block, see `IPAddress.clientBlock`) is let in.
    func admits(_ client: IPAddress) -> Bool {
        guard perClient > 0 else { return true }
        let crowded = total > 0 && open * 2 >= total
        guard (byClient[client] ?? 0) < (crowded ? crowdedShare : perClient) else { return false }
        guard let network = Self.network(of: client) else { return true }
        return (byNetwork[network] ?? 0) < perNetwork
    }

    /// A connection opened; `client` is nil when it is not counted (unknown, a trusted proxy, or no limit).
    mutating func opened(_ client: IPAddress?) {
        open += 1
        guard let client else { return }
        byClient[client, default: 0] += 1
        if let network = Self.network(of: client) { byNetwork[network, default: 0] += 1 }
    }

    /// A connection `opened` with `client` closed.
    mutating func closed(_ client: IPAddress?) {
        open = max(0, open - 1)
        guard let client else { return }
        Self.release(&byClient, client)
        if let network = Self.network(of: client) { Self.release(&byNetwork, network) }
    }

    /// Connections `client` holds.
    func held(by client: IPAddress) -> Int { byClient[client] ?? 0 }

    private static func network(of client: IPAddress) -> IPAddress? {
        client.isIPv4 ? nil : client.masked(to: 56)
    }

    private static func release(_ counts: inout [IPAddress: Int], _ key: IPAddress) {
        let left = (counts[key] ?? 1) - 1
        counts[key] = left > 0 ? left : nil
    }
}
