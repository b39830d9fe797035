import HTTPServer
import Testing

/// Which address per-client limits count against: the socket peer, or behind our proxy its last X-Forwarded-For hop.
struct ClientAddressTests {
    func request(peer: String? = "10.0.0.2", forwardedFor: [String]) -> Request {
        var headers = HTTPHeaders()
        for value in forwardedFor { headers.add("X-Forwarded-For", value) }
        return Request(method: .post, path: "/create", headers: headers, remoteAddress: peer)
    }

    @Test("without a trusted proxy the socket peer counts and X-Forwarded-For is ignored")
    func peerWhenNotBehindProxy() {
        #expect(request(forwardedFor: ["203.0.113.5"]).clientAddress(trustingForwardedFor: false) == "10.0.0.2")
        #expect(request(peer: nil, forwardedFor: ["203.0.113.5"]).clientAddress(trustingForwardedFor: false) == nil)
    }

    @Test("behind a trusted proxy the last hop counts, whatever the client wrote before it")
    func lastHopBehindProxy() {
        #expect(request(forwardedFor: ["203.0.113.5"]).clientAddress(trustingForwardedFor: true) == "203.0.113.5")
        #expect(request(forwardedFor: ["1.2.3.4, 198.51.100.7 ,  203.0.113.5 "]).clientAddress(trustingForwardedFor: true) == "203.0.113.5")
        #expect(request(forwardedFor: ["1.2.3.4", "203.0.113.9"]).clientAddress(trustingForwardedFor: true) == "203.0.113.9")
        #expect(request(forwardedFor: ["::1, 2001:db8::17"]).clientAddress(trustingForwardedFor: true) == "2001:db8::17")
    }

    @Test("behind a trusted proxy a missing or non-numeric last hop falls back to the peer")
    func fallbackToPeer() {
        for list in [[], [""], ["203.0.113.5, "], ["unknown"], ["203.0.113.5:443"], ["203.0.113.5, example.com"]] {
            #expect(request(forwardedFor: list).clientAddress(trustingForwardedFor: true) == "10.0.0.2", "\(list)")
        }
    }
}
