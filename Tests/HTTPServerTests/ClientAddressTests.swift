import HTTPServer
import Testing

/// Which address per-client limits count against: the socket peer, or behind trusted proxies the right-most
/// X-Forwarded-For hop that is not itself a trusted proxy.
struct ClientAddressTests {
    let proxies = try! TrustedProxies(parsing: ["10.0.0.0/8", "::1"])

    func request(peer: String? = "10.0.0.2", forwardedFor: [String], trusting: TrustedProxies? = nil) -> Request {
        var headers = HTTPHeaders()
        for value in forwardedFor { headers.add("X-Forwarded-For", value) }
        return Request(method: .post, path: "/create", headers: headers, remoteAddress: peer, trustedProxies: trusting ?? proxies)
    }

    @Test("a peer that is not a trusted proxy is the client, whatever it writes in X-Forwarded-For")
    func untrustedPeerIsItself() {
        #expect(request(peer: "192.168.1.20", forwardedFor: ["203.0.113.5"]).clientAddress == "192.168.1.20")
        #expect(request(peer: "10.0.0.2", forwardedFor: ["203.0.113.5"], trusting: .nobody).clientAddress == "10.0.0.2")
        #expect(request(peer: nil, forwardedFor: ["203.0.113.5"]).clientAddress == nil)
    }

    @Test("behind a trusted proxy the right-most hop counts, whatever the client wrote before it")
    func lastHopBehindProxy() {
        #expect(request(forwardedFor: ["203.0.113.5"]).clientAddress == "203.0.113.5")
        #expect(request(forwardedFor: ["1.2.3.4, 198.51.100.7 ,  203.0.113.5 "]).clientAddress == "203.0.113.5")
        #expect(request(forwardedFor: ["1.2.3.4", "203.0.113.9"]).clientAddress == "203.0.113.9")
        #expect(request(peer: "::1", forwardedFor: ["::1, 2001:db8::17"]).clientAddress == "2001:db8::17")
    }

    @Test("hops that are themselves trusted proxies are skipped from the right; all-trusted gives the left-most")
    func trustedHopsSkipped() {
        #expect(request(forwardedFor: ["9.9.9.9, 203.0.113.5, 10.1.2.3, 10.0.0.7"]).clientAddress == "203.0.113.5")
        #expect(request(forwardedFor: ["10.9.9.9, 10.0.0.7"]).clientAddress == "10.9.9.9")
    }

    @Test("behind a trusted proxy a missing or non-numeric right-most hop falls back to the peer")
    func fallbackToPeer() {
        for list in [[], [""], ["203.0.113.5, "], ["unknown"], ["203.0.113.5:443"], ["203.0.113.5, example.com"]] {
            #expect(request(forwardedFor: list).clientAddress == "10.0.0.2", "\(list)")
        }
        // A garbage hop further left stops the walk at the last address a trusted proxy vouched for.
        #expect(request(forwardedFor: ["garbage, 10.0.0.9"]).clientAddress == "10.0.0.9")
    }

    @Test("addresses come out canonical, so respelling one cannot pass for another client")
    func canonicalForm() {
        #expect(request(forwardedFor: ["2001:0DB8:0000::0001"]).clientAddress == "2001:db8::1")
        #expect(request(forwardedFor: ["::ffff:203.0.113.5"]).clientAddress == "203.0.113.5")
        #expect(request(peer: "::ffff:192.168.1.20", forwardedFor: []).clientAddress == "192.168.1.20")
        #expect(request(peer: "::ffff:10.0.0.2", forwardedFor: ["203.0.113.5"]).clientAddress == "203.0.113.5")
    }

    @Test("per-client limits count an IPv6 client by its /64, which it can pick any address in; IPv4 clients one address each")
    func ipv6ClientsByTheirSlash64() {
        let inOneBlock = ["2001:db8:1:2::a", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0db8:0001:0002:0:0:0:1"]
        #expect(Set(inOneBlock.map { request(peer: $0, forwardedFor: []).clientKey }) == ["2001:db8:1:2::/64"])
        #expect(request(forwardedFor: ["2001:db8:1:2::a"]).clientKey == "2001:db8:1:2::/64", "behind a proxy too")
        #expect(request(peer: "2001:db8:1:3::a", forwardedFor: []).clientKey == "2001:db8:1:3::/64", "the next /64 is another client")
        #expect(request(peer: "2001:db8:1:2::a", forwardedFor: []).clientAddress == "2001:db8:1:2::a", "the address itself is unchanged")
        #expect(request(peer: "192.168.1.20", forwardedFor: []).clientKey == "192.168.1.20")
        #expect(request(peer: "192.168.1.21", forwardedFor: []).clientKey == "192.168.1.21")
        #expect(request(peer: "::ffff:192.168.1.20", forwardedFor: []).clientKey == "192.168.1.20")
        #expect(request(peer: nil, forwardedFor: []).clientKey == nil)
    }

    @Test("X-Forwarded-Proto and X-Forwarded-Host are read from trusted peers only, right-most entry")
    func forwardedProtoAndHost() {
        var headers: HTTPHeaders = ["X-Forwarded-Proto": "http, HTTPS", "X-Forwarded-Host": "evil.example, stories.example"]
        let trusted = Request(method: .get, path: "/", headers: headers, remoteAddress: "10.0.0.2", trustedProxies: proxies)
        let untrusted = Request(method: .get, path: "/", headers: headers, remoteAddress: "192.168.1.9", trustedProxies: proxies)
        headers["X-Forwarded-Proto"] = "gopher"
        let odd = Request(method: .get, path: "/", headers: headers, remoteAddress: "10.0.0.2", trustedProxies: proxies)

        #expect(trusted.forwardedProto == "https")
        #expect(trusted.forwardedHost == "stories.example")
        #expect(trusted.peerIsTrustedProxy)
        #expect(untrusted.forwardedProto == nil)
        #expect(untrusted.forwardedHost == nil)
        #expect(!untrusted.peerIsTrustedProxy)
        #expect(odd.forwardedProto == nil)
    }
}
