import ATProto
import AuthServer
import Crypto
import Foundation
import HTTPServer
import TestSupport
import Testing

struct PersistenceTests {
    /// The signing key survives a restart, so tokens issued before it stay valid.
    @Test("a reopened server keeps its signing key and accepts earlier tokens")
    func keySurvivesRestart() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let access = try #require(try await fixture.signedIn(client)["access_token"] as? String)
        let clock = fixture.clock

        // act
        let reopened = try AuthServer(
            dataDirectory: fixture.directory, configuration: AuthServerConfiguration(origin: AuthFixture.issuer),
            accounts: fixture.accounts, sealingKey: AuthFixture.sealingKey, clock: { clock.now },
            renderSignIn: AuthFixture.render)
        let viewer = await reopened.viewer(for: try fixture.resourceRequest(client, accessToken: access))

        // validate
        #expect(viewer == fixture.maya)
        #expect(try reopened.hasPassword(for: fixture.maya))
    }

    /// Another sealing key cannot open the stored signing key: the server refuses to start.
    @Test("opening with another sealing key fails")
    func wrongSealingKey() throws {
        // setup
        let fixture = try AuthFixture()

        // act / validate
        #expect(throws: AuthServerError.self) {
            _ = try AuthServer(
                dataDirectory: fixture.directory, configuration: AuthServerConfiguration(origin: AuthFixture.issuer),
                accounts: fixture.accounts, sealingKey: SealingKey.random(), renderSignIn: AuthFixture.render)
        }
    }

    /// Passwords are only for household accounts; the file holds scrypt hashes, not passwords.
    @Test("passwords need an account and are stored hashed")
    func passwords() async throws {
        // setup
        let fixture = try AuthFixture()
        let stranger = LocalDID.mint()

        // act
        let hasStranger = try fixture.server.hasPassword(for: stranger)
        var database = try Data(contentsOf: URL(fileURLWithPath: fixture.directory + "/auth.sqlite"))
        database += (try? Data(contentsOf: URL(fileURLWithPath: fixture.directory + "/auth.sqlite-wal"))) ?? Data()

        // validate
        await #expect(throws: AuthServerError.self) { try await fixture.server.setPassword("secret words", for: stranger) }
        await #expect(throws: AuthServerError.self) { try await fixture.server.setPassword("", for: fixture.maya) }
        #expect(!hasStranger)
        #expect(try fixture.server.hasPassword(for: fixture.jonas))
        #expect(database.range(of: Data(AuthFixture.password.utf8)) == nil)
    }
}
