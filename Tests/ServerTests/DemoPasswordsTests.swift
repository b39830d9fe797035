import ATProto
import AuthServer
import Backend
import Foundation
import Server
import TestSupport
import Testing

/// The demo household's passwords are in the README, so they may only open a server nothing but this machine can
/// reach: anywhere else each member gets a random one, printed once, and a household seeded on loopback that is
/// later served to the network loses its published passwords.
@Suite struct DemoPasswordsTests {
    static let published = ["maya.home.test": "maya-stories", "jonas.home.test": "jonas-stories", "ines.home.test": "ines-stories"]

    static func configuration(data: String, _ change: (inout ServeConfiguration) -> Void = { _ in }) -> ServeConfiguration {
        var configuration = ServeConfiguration()
        configuration.dataDirectory = data
        configuration.keyDirectory = data + "-keys"
        configuration.demo = true
        configuration.demoPhotosDirectory = demoPhotos
        configuration.fastPasswordHashing = true
        configuration.port = 0
        change(&configuration)
        return configuration
    }

    /// Whether `password` opens `handle`'s account in `app`'s household.
    static func opens(_ app: Application, _ handle: String, _ password: String) async throws -> Bool {
        let account = try #require(try app.backend?.store.accounts.account(handle))
        let authServer = try #require(app.authServer)
        return await authServer.isPassword(password, of: account.did)
    }

    @Test("only a server bound to loopback, with no TLS proxy and no public URL elsewhere, counts as this machine's alone")
    func loopbackOnly() {
        // (host, public URL, behind a TLS proxy) → only this machine reaches it
        let cases: [(String, String?, Bool, Bool)] = [
            ("127.0.0.1", nil, false, true), ("::1", nil, false, true), ("localhost", nil, false, true),
            ("127.0.0.1", "http://localhost:8080/", false, true), ("0.0.0.0", nil, false, false), ("::", nil, false, false),
            ("192.168.1.20", nil, false, false), ("127.0.0.1", nil, true, false), ("127.0.0.1", "https://stories.example.com", false, false),
            ("127.0.0.1", "http://127.0.0.1.example.com", false, false),
        ]
        for (host, publicURL, proxied, alone) in cases {
            let configuration = Self.configuration(data: "/tmp/unused") {
                $0.host = host
                $0.publicURL = publicURL
                $0.behindTLSProxy = proxied
            }
            #expect(configuration.isLoopbackOnly == alone, "\(host) \(publicURL ?? "") \(proxied ? "behind a proxy" : "")")
        }
    }

    @Test("on loopback the demo keeps the README's passwords")
    func publishedOnLoopback() async throws {
        let data = TemporaryDirectory("demo-loopback")
        defer { data.remove() }
        let app = try Application(configuration: Self.configuration(data: data.path) { $0.host = "127.0.0.1" })
        let seeded = try await app.seedDemoIfAsked()
        #expect(Dictionary(uniqueKeysWithValues: seeded.map { ($0.handle, $0.password) }) == Self.published)
        #expect(try await Self.opens(app, "maya.home.test", "maya-stories"))
    }

    // Every interface is the deployment suite's (in a network namespace); here the server stays on loopback, and what
    // lets others in is the TLS proxy in front of it, or the public address it is reached at.
    @Test("behind a TLS proxy each member gets a random password; a loopback household given a public URL later loses the published ones")
    func randomBeyondLoopback() async throws {
        let data = TemporaryDirectory("demo-network")
        defer { data.remove() }
        let network = try Application(configuration: Self.configuration(data: data.path) { $0.behindTLSProxy = true })
        let seeded = try await network.seedDemoIfAsked()
        #expect(seeded.map(\.handle) == ["maya.home.test", "jonas.home.test", "ines.home.test"])
        #expect(Set(seeded.map(\.password)).count == 3)
        for (handle, password) in seeded {
            #expect(password.count >= 16 && password != Self.published[handle])
            #expect(try await Self.opens(network, handle, password))
            #expect(try await !Self.opens(network, handle, Self.published[handle] ?? ""))
        }
        #expect(try await network.seedDemoIfAsked().isEmpty, "nothing published is left to replace")

        let other = TemporaryDirectory("demo-moved")
        defer { other.remove() }
        let loopback = try Application(configuration: Self.configuration(data: other.path) { $0.host = "127.0.0.1" })
        _ = try await loopback.seedDemoIfAsked()
        let jonas = try #require(try loopback.backend?.store.accounts.account("jonas.home.test"))
        try await #require(loopback.authServer).setPassword("jonas chose this one", for: jonas.did)
        await loopback.stop()

        let moved = try Application(configuration: Self.configuration(data: other.path) { $0.publicURL = "https://stories.example.com" })
        let replaced = try await moved.seedDemoIfAsked()
        #expect(replaced.map(\.handle) == ["maya.home.test", "ines.home.test"], "a password the member chose stays")
        for (handle, password) in replaced {
            #expect(try await Self.opens(moved, handle, password))
            #expect(try await !Self.opens(moved, handle, Self.published[handle] ?? ""))
        }
        #expect(try await Self.opens(moved, "jonas.home.test", "jonas chose this one"))
    }
}
