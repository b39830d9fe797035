import HTTPServer
import Testing
import WebAddresses

struct TrustedProxiesTests {
    @Test("the default trusted proxies are loopback only, and a bad entry is named in the error")
    func trustedProxies() throws {
        #expect(TrustedProxies.loopback.contains(IPAddress("127.0.0.1")!))
        #expect(TrustedProxies.loopback.contains(IPAddress("127.1.2.3")!))
        #expect(TrustedProxies.loopback.contains(IPAddress("::1")!))
        #expect(!TrustedProxies.loopback.contains(IPAddress("192.168.1.20")!))
        #expect(!TrustedProxies.nobody.contains(IPAddress("127.0.0.1")!))
        let parsed = try TrustedProxies(parsing: ["10.0.0.0/8", " 192.168.1.5 "])
        #expect(parsed.contains(IPAddress("192.168.1.5")!))
        let error = #expect(throws: AddressRangeError.self) { try TrustedProxies(parsing: ["10.0.0.0/8", "proxy.lan"]) }
        #expect(error?.description.contains("\"proxy.lan\"") == true)
    }
}
