import ATProto
import Crypto
import Foundation
import HatkClient
import TestSupport
import Testing

/// An XRPC write decides from its head whether its body is worth reading: `Authorization: DPoP` followed by
/// anything at all used to be let in, so every connection could make the server hold a 5 MB body in memory.
@Suite(.serialized)
struct XRPCAdmissionTests {
    /// The head of a 4 MB `uploadBlob`, sent alone: the body never follows.
    static func head(authorization: String, proof: String? = "eyJ.eyJ.sig") -> [UInt8] {
        Array(
            ("POST /xrpc/dev.hatk.uploadBlob HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(authorization)\r\n"
                + (proof.map { "DPoP: \($0)\r\n" } ?? "") + "Content-Type: image/jpeg\r\nContent-Length: 4000000\r\n\r\n").utf8)
    }

    /// The answer to a lone head within two seconds, on a connection of its own.
    static func answer(to head: [UInt8], port: UInt16) throws -> String {
        let connection = try RawConnection(port: port)
        connection.send(head)
        return connection.receive(within: 2)
    }

    /// The real token, signed again with a key that is not the server's.
    static func forged(_ token: String) throws -> String {
        let parts = try JWT.decode(token, header: JSONValue.self, claims: JSONValue.self)
        return try JWT.sign(header: parts.header, claims: parts.claims, key: P256PrivateKey())
    }

    @Test("an XRPC write whose DPoP token is made up, forged, expired or without a proof is refused from its head, before its body")
    func bogusTokenRefusedBeforeBody() async throws {
        // setup: a member's real token, from a real sign-in
        let live = try await LiveApp(demo: true)
        defer { Task { await live.stop() } }
        let port = try #require(URL(string: live.base)?.port.map(UInt16.init))
        let (_, credentials) = try await signInForWrites(base: live.base, handle: "maya.home.test", password: "maya-stories")
        let real = credentials.accessToken

        // act: the heads alone, each on its own connection
        let admitted = try Self.answer(to: Self.head(authorization: "DPoP \(real)"), port: port)
        let refused = try [
            ("a made-up token", Self.head(authorization: "DPoP x")),
            ("a token signed by another key", Self.head(authorization: "DPoP \(Self.forged(real))")),
            ("a real token without a proof header", Self.head(authorization: "DPoP \(real)", proof: nil)),
        ].map { ($0.0, try Self.answer(to: $0.1, port: port)) }
        live.clock.advance(hours: 2)
        let expired = try Self.answer(to: Self.head(authorization: "DPoP \(real)"), port: port)

        // validate: a live token's head is let in, so the server waits for the body it announced
        #expect(admitted == "", "a real token's head should wait for its body; it got \(admitted.prefix(200))")
        for (what, answer) in refused + [("an expired token", expired)] {
            #expect(answer.hasPrefix("HTTP/1.1 401"), "\(what): \(answer.prefix(200))")
            #expect(answer.lowercased().contains("connection: close"), "\(what): the body is not read, so the connection ends")
            #expect(answer.contains("Authentication required"), "\(what): \(answer)")
        }
    }
}
