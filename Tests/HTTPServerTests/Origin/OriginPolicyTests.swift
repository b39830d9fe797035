import Clocks
import Testing
import WebAddresses

@testable import HTTPServer

/// The origin rule, on a fake machine: a box at 192.168.1.20 (and fe80::1) called `box`.
struct OriginPolicyTests {
    static let box = MachineNames(
        addresses: { [IPAddress("192.168.1.20")!, IPAddress("fe80::1")!, IPAddress("127.0.0.1")!, IPAddress("::1")!] },
        hostName: { "box" })

    private func policy(
        canonical: String? = nil, allowed: [String] = [], behindTLSProxy: Bool = false, machine: MachineNames = box
    ) throws -> OriginPolicy {
        try OriginPolicy(canonical: canonical, allowedHosts: allowed, behindTLSProxy: behindTLSProxy, machine: machine)
    }

    private func request(host: String?, peer: String = "192.168.1.50", headers extra: HTTPHeaders = [:]) -> Request {
        var headers = extra
        if let host { headers.add("Host", host) }
        return Request(method: .get, path: "/", headers: headers, remoteAddress: peer)
    }

    private func own(_ text: String) -> OriginDecision { .own(Origin(text)!) }

    @Test("a browser on an address, name or localhost of this machine gets that origin, with the port it used")
    func acceptedHosts() throws {
        let policy = try policy()
        let cases: [(String, String)] = [
            ("192.168.1.20:8080", "http://192.168.1.20:8080"), ("box.local:8080", "http://box.local:8080"),
            ("BOX.Local:8080", "http://box.local:8080"), ("box", "http://box"), ("localhost:8080", "http://localhost:8080"),
            ("kiosk.localhost", "http://kiosk.localhost"), ("127.0.0.1:9000", "http://127.0.0.1:9000"),
            ("127.0.0.2", "http://127.0.0.2"), ("[::1]:8080", "http://[::1]:8080"), ("[FE80::1]:8080", "http://[fe80::1]:8080"),
            ("192.168.1.20:80", "http://192.168.1.20"),
        ]
        for (host, origin) in cases {
            #expect(policy.origin(of: request(host: host)) == own(origin), "\(host)")
        }
        #expect(Origin("http://[fe80::1]:8080")?.description == "http://[fe80::1]:8080")
    }

    @Test("hostile, foreign and malformed hosts are refused and never become an origin")
    func refusedHosts() throws {
        let policy = try policy()
        let unknown = [
            "evil.example", "evil.example:8080", "169.254.169.254", "192.168.1.21:8080", "box.evil.example", "box.local.evil",
            "localhost.evil.example", "0.0.0.0:8080", "[2001:db8::1]", "[::ffff:169.254.169.254]",
        ]
        for host in unknown {
            guard case .refused(let refusal) = policy.origin(of: request(host: host)) else {
                Issue.record("\(host) was accepted")
                continue
            }
            #expect(refusal.reason == .unknownHost, "\(host)")
        }
        let malformed = [
            "127.1", "0x7f.0.0.1", "010.0.0.1", "box.local.", ".box", "box:0", "box:65536", "box:080", "box:", "user@box",
            "box:8080:1", "b\u{F3}x", "box local", "[::1", "[::1]x", "[192.168.1.20]", "a..b", String(repeating: "a", count: 64) + ".box",
        ]
        for host in malformed {
            guard case .refused(let refusal) = policy.origin(of: request(host: host)) else {
                Issue.record("\(host) was accepted")
                continue
            }
            #expect(refusal.reason == .malformedHost, "\(host)")
        }
        #expect(policy.origin(of: request(host: "[fe80::1%25eth0]:8080")) == .refused(OriginRefusal(.zoneIdentifier, host: "[fe80::1%25eth0]:8080")))
        #expect(policy.origin(of: request(host: nil)) == .refused(OriginRefusal(.missingHost, host: "")))
        #expect(policy.origin(of: request(host: "")) == .refused(OriginRefusal(.missingHost, host: "")))
        let twice = request(host: "box", headers: ["Host": "evil.example"])
        guard case .refused(let refusal) = policy.origin(of: twice) else {
            Issue.record("two Host headers were accepted")
            return
        }
        #expect(refusal.reason == .malformedHost)
    }

    @Test("configured names and addresses are accepted besides the machine's own")
    func allowedHosts() throws {
        let policy = try policy(allowed: ["Stories.LAN", "10.8.0.1:8080", "[fd00::5]"])

        #expect(policy.origin(of: request(host: "stories.lan:8080")) == own("http://stories.lan:8080"))
        #expect(policy.origin(of: request(host: "10.8.0.1")) == own("http://10.8.0.1"))
        #expect(policy.origin(of: request(host: "[fd00::5]:1")) == own("http://[fd00::5]:1"))
        #expect(throws: OriginPolicyError.self) { try OriginPolicy(allowedHosts: ["not a host"], machine: Self.box) }
        #expect(throws: OriginPolicyError.self) { try OriginPolicy(canonical: "ftp://stories.example", machine: Self.box) }
        #expect(throws: OriginPolicyError.self) { try OriginPolicy(canonical: "stories.example", machine: Self.box) }
    }

    @Test("behind a TLS proxy an http public URL is refused at start, with what to change: it would redirect every page to itself")
    func plainPublicURLBehindTLSProxy() throws {
        do {
            _ = try OriginPolicy(canonical: "http://stories.example", behindTLSProxy: true, machine: Self.box)
            Issue.record("an http public URL behind a TLS proxy was accepted")
        } catch {
            #expect(error.description.contains("https://") && error.description.contains("--behind-tls-proxy"), "\(error)")
        }
        #expect(try OriginPolicy(canonical: "https://stories.example", behindTLSProxy: true, machine: Self.box).canonical != nil)
        #expect(try OriginPolicy(canonical: "http://stories.example", machine: Self.box).canonical != nil)
    }

    @Test("X-Forwarded-Host and -Proto count only from a trusted proxy; behind a TLS proxy the scheme is https")
    func forwardedHeaders() throws {
        let policy = try policy(allowed: ["stories.example"])
        let forwarded: HTTPHeaders = ["X-Forwarded-Host": "stories.example", "X-Forwarded-Proto": "https"]

        let viaProxy = request(host: "127.0.0.1:8080", peer: "127.0.0.1", headers: forwarded)
        let spoofed = request(host: "192.168.1.20:8080", peer: "192.168.1.50", headers: forwarded)
        let hostileViaProxy = request(host: "127.0.0.1:8080", peer: "127.0.0.1", headers: ["X-Forwarded-Host": "evil.example"])

        #expect(policy.origin(of: viaProxy) == own("https://stories.example"))
        #expect(policy.origin(of: spoofed) == own("http://192.168.1.20:8080"))
        #expect(policy.origin(of: hostileViaProxy) == .refused(OriginRefusal(.unknownHost, host: "evil.example")))
        #expect(try self.policy(behindTLSProxy: true).origin(of: request(host: "box.local")) == own("https://box.local"))
    }

    @Test("with a canonical origin, other accepted hosts are not canonical and get the redirect target")
    func canonicalOrigin() throws {
        let policy = try policy(canonical: "https://stories.example/")
        let proxied = request(
            host: "127.0.0.1:8080", peer: "127.0.0.1", headers: ["X-Forwarded-Host": "stories.example", "X-Forwarded-Proto": "https"])
        let direct = Request(method: .get, path: "/stories/a b", query: "x=1", headers: ["Host": "192.168.1.20:8080"], remoteAddress: "192.168.1.50")

        #expect(policy.origin(of: proxied) == own("https://stories.example"))
        #expect(
            policy.origin(of: request(host: "stories.example:443", peer: "127.0.0.1", headers: ["X-Forwarded-Proto": "https"]))
                == own("https://stories.example"))
        guard case .notCanonical(let origin, let canonical) = policy.origin(of: direct) else {
            Issue.record("a LAN request was taken as canonical")
            return
        }
        #expect(origin.description == "http://192.168.1.20:8080")
        #expect(canonical.url(path: direct.path, query: direct.query) == "https://stories.example/stories/a%20b?x=1")
        #expect(policy.origin(of: request(host: "stories.example")) == .notCanonical(Origin("http://stories.example")!, canonical: canonical))
        #expect(policy.origin(of: request(host: "evil.example")) == .refused(OriginRefusal(.unknownHost, host: "evil.example")))
        #expect(policy.origin(of: direct).origin == origin)
        #expect(policy.origin(of: proxied).origin == canonical)
        #expect(policy.origin(of: request(host: "evil.example")).origin == nil)
    }

    @Test("an Origin header compares equal to the decided origin whatever its case and default port; null never does")
    func originHeaderComparison() throws {
        let decided = try #require(try policy().origin(of: request(host: "box.local:8080")).origin)

        #expect(Origin("http://BOX.local:8080") == decided)
        #expect(Origin("http://box.local:8081") != decided)
        #expect(Origin("https://box.local:8080") != decided)
        #expect(Origin("null") == nil)
        #expect(Origin("http://box.local:80") == Origin("http://box.local"))
    }

    @Test("isOwn accepts the canonical origin only when there is one, else any origin on an accepted host")
    func isOwn() throws {
        let open = try policy()
        #expect(open.isOwn(origin: "http://192.168.1.20:8080"))
        #expect(open.isOwn(origin: "http://box.local:1234/oauth-client-metadata.json"))
        #expect(open.isOwn(origin: "https://localhost"))
        for foreign in ["https://evil.example", "ftp://box", "http://user@box", "box", "http://169.254.169.254", "http://[fe80::1%25lo]"] {
            #expect(!open.isOwn(origin: foreign), "\(foreign)")
        }
        let canonical = try policy(canonical: "https://stories.example")
        #expect(canonical.isOwn(origin: "https://stories.example:443/client.json"))
        #expect(!canonical.isOwn(origin: "http://stories.example"))
        #expect(!canonical.isOwn(origin: "http://192.168.1.20:8080"))
    }

    @Test("a new address is seen at once (at most one read a second), a new host name after the refresh interval")
    func machineRefresh() throws {
        // setup: a machine whose lease and name can change, and a clock the test moves
        let state = Shared((addresses: ["192.168.1.20"], name: "box", reads: 0))
        let machine = MachineNames(
            addresses: {
                state.withLock {
                    $0.reads += 1; return $0.addresses.compactMap { IPAddress($0) }
                }
            },
            hostName: { state.withLock { $0.name } })
        let clock = Shared(Duration.zero)
        let policy = try OriginPolicy(
            machine: machine, refreshInterval: .seconds(30), clock: MonotonicClock(now: { clock.withLock { $0 } }, sleep: { _ in }))
        #expect(policy.origin(of: request(host: "192.168.1.20")) == own("http://192.168.1.20"))

        // act + validate: DHCP hands out a new address
        state.withLock {
            $0.addresses = ["192.168.1.33"]
            $0.name = "den"
        }
        for _ in 0..<20 { _ = policy.origin(of: request(host: "192.168.1.99")) }
        #expect(state.withLock { $0.reads } == 1, "misses within a second read nothing")
        clock.withLock { $0 += .milliseconds(1500) }
        #expect(policy.origin(of: request(host: "192.168.1.33")) == own("http://192.168.1.33"))
        #expect(policy.origin(of: request(host: "192.168.1.20")) == .refused(OriginRefusal(.unknownHost, host: "192.168.1.20")))
        #expect(policy.origin(of: request(host: "den.local")) == own("http://den.local"), "the miss re-read the name too")
        clock.withLock { $0 += .seconds(31) }
        state.withLock { $0.name = "attic" }
        #expect(policy.origin(of: request(host: "attic")) == own("http://attic"))
        #expect(policy.origin(of: request(host: "den")) == .refused(OriginRefusal(.unknownHost, host: "den")))
    }

    @Test("the real machine lists loopback among its addresses and has a host name")
    func systemMachine() throws {
        let addresses = MachineNames.system.addresses()
        #expect(addresses.contains(IPAddress("127.0.0.1")!))
        let name = try #require(MachineNames.system.hostName())
        let policy = try OriginPolicy()
        #expect(policy.origin(of: request(host: name.lowercased() + ":8080")) == own("http://\(name.lowercased()):8080"))
    }
}
