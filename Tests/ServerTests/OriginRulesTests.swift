import App
import HTTPServer
import Testing

@testable import Server

/// The composition root's stand-in origin rules, for a server bound to every interface and to loopback.
struct OriginRulesTests {
    func decision(_ host: String, listeningOn: String) -> OriginDecision {
        var headers = HTTPHeaders()
        headers.add("Host", host)
        return OriginRules(canonical: nil, listeningOn: listeningOn, behindTLSProxy: false)
            .decide(Request(method: .get, path: "/", headers: headers))
    }

    func machineAddress() throws -> String {
        try #require(MachineAddresses.current().first { !$0.isLoopback && !$0.isIPv6 }?.text, "this machine has no IPv4 address")
    }

    @Test("bound to 0.0.0.0, every address of this machine is an origin of ours, and another name is refused")
    func everyInterface() throws {
        let address = try machineAddress()
        #expect(decision("\(address):8080", listeningOn: "0.0.0.0") == .accepted("http://\(address):8080"))
        #expect(decision("evil.example:8080", listeningOn: "0.0.0.0") == .refused)
        #expect(decision("localhost:8080", listeningOn: "0.0.0.0") == .accepted("http://localhost:8080"))
    }

    @Test("bound to loopback only, the machine's other addresses are not origins of ours")
    func loopbackOnly() throws {
        #expect(decision("\(try machineAddress()):8080", listeningOn: "127.0.0.1") == .refused)
    }
}
