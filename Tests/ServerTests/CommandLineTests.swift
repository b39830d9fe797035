import App
import Foundation
import Server
import Testing

struct CommandLineTests {
    @Test("serve options parse into the configuration")
    func parsesServe() throws {
        guard
            case .serve(let c) = try Command.parse([
                "serve", "--demo", "--port", "0", "--data", "/tmp/x", "--appview", "https://grain.social", "--dev",
            ])
        else {
            Issue.record("expected serve")
            return
        }
        #expect(c.demo && c.development)
        #expect(c.port == 0)
        #expect(c.dataDirectory == "/tmp/x")
        #expect(c.appview?.absoluteString == "https://grain.social")
    }

    @Test("--trusted-proxy and --allowed-host take lists and refuse what is not an address or a name; loopback is believed only behind the TLS proxy")
    func proxiesAndHosts() throws {
        guard case .serve(let defaults) = try Command.parse(["serve"]) else {
            Issue.record("expected serve")
            return
        }
        #expect(defaults.believedProxies.isEmpty, "a server browsers reach directly believes no forwarding header")
        guard case .serve(let proxied) = try Command.parse(["serve", "--behind-tls-proxy", "--public-url", "https://stories.example"]) else {
            Issue.record("expected serve")
            return
        }
        #expect(proxied.believedProxies == ["127.0.0.0/8", "::1/128"], "behind the TLS proxy, loopback is the proxy by default")
        #expect(defaults.allowedHosts.isEmpty)
        guard
            case .serve(let c) = try Command.parse([
                "serve", "--trusted-proxy", "10.0.0.5,192.168.1.0/24", "--allowed-host", "stories.lan,192.168.1.20",
            ])
        else {
            Issue.record("expected serve")
            return
        }
        #expect(c.believedProxies == ["10.0.0.5", "192.168.1.0/24"])
        #expect(c.allowedHosts == ["stories.lan", "192.168.1.20"])
        for args in [
            ["serve", "--trusted-proxy", "not-an-address"], ["serve", "--trusted-proxy", "10.0.0.0/99"], ["serve", "--allowed-host", "a b"],
        ] {
            #expect(throws: Command.UsageError.self, "\(args)") { try Command.parse(args) }
        }
    }

    @Test("bad arguments give a usage error naming the problem")
    func badArguments() {
        for args in [["serve", "--port", "http"], ["serve", "--bogus"], ["launch"], ["serve", "--appview", "ftp://x"], ["serve", "--data"]] {
            #expect(throws: Command.UsageError.self, "\(args)") { try Command.parse(args) }
        }
    }
}

struct UsersCommandTests {
    @Test("--household-name and --household-contact are trimmed, from a flag or the environment; empty or too long is refused")
    func householdWords() throws {
        guard
            case .serve(let c) = try Command.parse(
                ["serve", "--household-name", " The Costas ", "--household-contact", "  Ask Ana: ana@example.com "])
        else { throw Command.UsageError(description: "expected serve") }
        #expect(c.householdName == "The Costas" && c.householdContact == "Ask Ana: ana@example.com")
        guard case .serve(let e) = try Command.parse(["serve"], environment: ["GRAIN_STORIES_HOUSEHOLD_CONTACT": "Text Ana"]) else {
            throw Command.UsageError(description: "expected serve")
        }
        #expect(e.householdContact == "Text Ana")
        for contact in ["   ", String(repeating: "a", count: 201)] {
            #expect(throws: Command.UsageError.self) { try Command.parse(["serve", "--household-contact", contact]) }
        }
    }

    @Test("users add parses its name and options")
    func parsesUsersAdd() throws {
        guard
            case .addUser(let c) = try Command.parse(["users", "add", "Maya", "--display-name", "Maya Costa", "--password-stdin", "--data", "/tmp/d"])
        else {
            Issue.record("expected users add")
            return
        }
        #expect(c.name == "maya")
        #expect(c.displayName == "Maya Costa")
        #expect(c.passwordFromStdin)
        #expect(c.configuration.dataDirectory == "/tmp/d")
        #expect(throws: Command.UsageError.self) { try Command.parse(["users", "add"]) }
        #expect(throws: Command.UsageError.self) { try Command.parse(["users", "frobnicate", "x"]) }
    }
}

struct EnvironmentConfigurationTests {
    @Test("serve options come from GRAIN_STORIES_* variables, and flags win over them")
    func environment() throws {
        let env = [
            "GRAIN_STORIES_PORT": "9000", "GRAIN_STORIES_DATA": "/srv/s", "GRAIN_STORIES_DEMO": "true",
            "GRAIN_STORIES_PUBLIC_URL": "https://s.example",
        ]
        guard case .serve(let c) = try Command.parse(["serve", "--port", "9100"], environment: env) else {
            Issue.record("expected serve")
            return
        }
        #expect(c.port == 9100)
        #expect(c.dataDirectory == "/srv/s")
        #expect(c.demo)
        #expect(c.publicURL == "https://s.example")
        #expect(throws: Command.UsageError.self) { try Command.parse(["serve"], environment: ["GRAIN_STORIES_DEMO": "maybe"]) }
    }
}
