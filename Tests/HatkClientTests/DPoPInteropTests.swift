import ATProto
import Crypto
import Foundation
import HTTPServer
import HatkClient
import Lexicon
import Synchronization
import Testing

/// Every DPoP proof our OAuth and XRPC clients send, captured by a stand-in server and verified by an
/// independent JOSE implementation (Python's jwcrypto).
@Suite(.serialized)
struct DPoPInteropTests {
    struct Captured: Sendable {
        var method: String
        var url: String
        var proof: String
        var accessToken: String?
    }

    @Test("PAR, token, refresh and XRPC proofs all verify in jwcrypto, with the right claims, nonce retry included")
    func proofsVerifyIndependently() async throws {
        let recorder = Recorder()
        let stub = try StubServer { router in
            router.on(.get, "/.well-known/oauth-authorization-server") { _ in
                let o = recorder.origin()
                return jsonBody(
                    #"{"issuer":"\#(o)","authorization_endpoint":"\#(o)/oauth/authorize","token_endpoint":"\#(o)/oauth/token","pushed_authorization_request_endpoint":"\#(o)/oauth/par"}"#
                )
            }
            router.on(.post, "/oauth/par") { request in
                recorder.record(request)
                // The first PAR is refused once, as an atproto-profile server does, to exercise the nonce retry.
                let first = recorder.firstPAR()
                if first {
                    var response = jsonBody(#"{"error":"use_dpop_nonce"}"#, status: .badRequest)
                    response.headers["DPoP-Nonce"] = "server-nonce-1"
                    return response
                }
                return jsonBody(#"{"request_uri":"urn:ietf:params:oauth:request_uri:abc","expires_in":600}"#, status: .created)
            }
            router.on(.post, "/oauth/token") { request in
                recorder.record(request)
                return jsonBody(
                    #"{"access_token":"at-\#(UUID().uuidString)","token_type":"DPoP","expires_in":3600,"refresh_token":"rt-\#(UUID().uuidString)","sub":"did:plc:abc","scope":"atproto"}"#
                )
            }
            router.on(.post, "/xrpc/dev.hatk.createRecord") { request in
                recorder.record(request)
                return jsonBody(#"{"uri":"at://did:plc:abc/social.grain.story/3jzfcijpj2z2a","cid":"bafyreib"}"#)
            }
        }
        recorder.port.withLock { $0 = stub.server.port }
        defer { Task { await stub.server.shutdown() } }

        let nonces = ReceivedNonces()
        let oauth = OAuthClient(
            clientID: "http://127.0.0.1/client", redirectURI: "http://127.0.0.1/cb", issuer: URL(string: recorder.origin())!, nonces: nonces,
            policy: stub.policy)
        let (_, pending) = try await oauth.beginSignIn(loginHint: "alice.test")
        let tokens = try await oauth.completeSignIn(pending: pending, code: "code-1", issuer: recorder.origin())
        let refreshed = try await oauth.refresh(tokens, dpopKey: pending.dpopKey)
        let hatk = HatkClient(baseURL: URL(string: recorder.origin())!, nonces: nonces, policy: stub.policy)
        _ = try await hatk.createRecord(
            collection: "social.grain.story", record: .object(["x": .integer(1)]),
            as: DPoPCredentials(dpopKey: pending.dpopKey, accessToken: refreshed.accessToken))

        let proofs = recorder.captured.withLock { $0 }
        #expect(proofs.count == 5, "PAR twice (nonce retry), token, refresh, one XRPC call")
        #expect(
            Set(proofs.map { (try? JWT.decode($0.proof, header: DPoP.Header.self, claims: DPoP.Claims.self))?.claims.jti ?? "" }).count == 5,
            "every jti is unique")
        let thumbprints = Set(
            proofs.compactMap { (try? JWT.decode($0.proof, header: DPoP.Header.self, claims: DPoP.Claims.self))?.header.jwk.thumbprint })
        #expect(thumbprints.count == 1, "one DPoP key for PAR, token, refresh and XRPC")

        let script = """
            import json, sys, hashlib, base64
            from jwcrypto import jwk, jws
            out = []
            for line in sys.stdin:
                item = json.loads(line)
                token = jws.JWS()
                token.deserialize(item["proof"])
                header = json.loads(base64.urlsafe_b64decode(item["proof"].split(".")[0] + "=="))
                key = jwk.JWK(**header["jwk"])
                token.verify(key, alg="ES256")
                claims = json.loads(token.payload)
                ath = None
                if item.get("accessToken"):
                    ath = base64.urlsafe_b64encode(hashlib.sha256(item["accessToken"].encode()).digest()).rstrip(b"=").decode()
                out.append({"typ": header["typ"], "alg": header["alg"], "private": "d" in header["jwk"],
                            "htm": claims["htm"] == item["method"], "htu": claims["htu"] == item["url"],
                            "ath": claims.get("ath") == ath, "nonce": claims.get("nonce"), "iat": claims["iat"]})
            print(json.dumps(out))
            """
        let input = proofs.map { p in
            let object: [String: Any] = ["proof": p.proof, "method": p.method, "url": p.url, "accessToken": p.accessToken as Any? ?? NSNull()]
            return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }.joined(separator: "\n")
        let results = try runPython(script, input: input)
        let checks = try #require(try JSONSerialization.jsonObject(with: Data(results.utf8)) as? [[String: Any]])
        #expect(checks.count == 5)
        let now = Int(Date().timeIntervalSince1970)
        for (i, check) in checks.enumerated() {
            #expect(check["typ"] as? String == "dpop+jwt", "proof \(i)")
            #expect(check["alg"] as? String == "ES256")
            #expect(check["private"] as? Bool == false, "no private key in the header")
            #expect(check["htm"] as? Bool == true && check["htu"] as? Bool == true, "proof \(i) names the request it signs")
            #expect(check["ath"] as? Bool == true, "proof \(i): ath only, and exactly, on resource calls")
            #expect(abs((check["iat"] as? Int ?? 0) - now) < 60)
        }
        #expect(checks[0]["nonce"] is NSNull, "the first PAR has no nonce yet")
        #expect(checks[1]["nonce"] as? String == "server-nonce-1", "the retry carries the server's nonce")
    }
}

final class Recorder: Sendable {
    let captured = Mutex<[DPoPInteropTests.Captured]>([])
    let port = Mutex<UInt16>(0)
    private let demanded = Mutex(false)

    func origin() -> String { "http://127.0.0.1:\(port.withLock { $0 })" }

    func firstPAR() -> Bool {
        demanded.withLock { demanded in
            defer { demanded = true }
            return !demanded
        }
    }

    func record(_ request: Request) {
        let auth = request.headers["Authorization"]
        let url = origin() + request.path
        captured.withLock {
            $0.append(
                DPoPInteropTests.Captured(
                    method: request.method.rawValue, url: url, proof: request.headers["DPoP"] ?? "",
                    accessToken: auth?.hasPrefix("DPoP ") == true ? String(auth!.dropFirst(5)) : nil))
        }
    }
}

/// Runs a Python snippet with jwcrypto (installed by `make test`).
func runPython(_ script: String, input: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [ProcessInfo.processInfo.environment["PYTHON"] ?? "python3", "-c", script]
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw NSError(
            domain: "python", code: Int(process.terminationStatus),
            userInfo: [NSLocalizedDescriptionKey: String(decoding: errors, as: UTF8.self) + " (is jwcrypto installed? `make test` installs it)"])
    }
    return String(decoding: output, as: UTF8.self)
}
