import AuthServer
import Crypto
import Foundation
import HTTPServer

/// An OAuth client as the front runs it: one DPoP key per session, PKCE, and by default the front's own client
/// under the fixture's issuer, naming that origin in its proofs.
struct TestClient {
    static let scope = "atproto repo:social.grain.story blob:image/*"

    /// The origin the browser uses: proofs name it in `htu`, the sign-in form posts from it.
    var origin = AuthFixture.issuer
    var clientID = AuthFixture.issuer + "/oauth-client-metadata.json"
    var redirectURI = AuthFixture.issuer + "/auth/callback"

    /// atproto's localhost development client declaring `redirect` and `scope` in its client_id.
    static func localhost(redirect: String, using redirectURI: String? = nil, scope: String = TestClient.scope) -> TestClient {
        var client = TestClient()
        client.clientID = "http://localhost?" + Form.query(["redirect_uri": redirect, "scope": scope])
        client.redirectURI = redirectURI ?? redirect
        client.scope = scope
        return client
    }

    /// The front's own client under `origin`.
    static func own(_ origin: String) -> TestClient {
        var client = TestClient()
        client.origin = origin
        client.clientID = origin + "/oauth-client-metadata.json"
        client.redirectURI = origin + "/auth/callback"
        return client
    }
    var key = P256PrivateKey()
    var verifier = PKCE.makeVerifier()
    var state = SecureRandom.token(byteCount: 16)
    var scope = TestClient.scope
    /// The last `DPoP-Nonce` the server sent, put into later proofs.
    var nonce: String?

    var parFields: [String: String] {
        [
            "client_id": clientID, "redirect_uri": redirectURI, "response_type": "code",
            "code_challenge": PKCE.challenge(for: verifier), "code_challenge_method": "S256", "state": state,
            "scope": scope, "login_hint": "maya.home.test",
        ]
    }

    func codeFields(_ code: String) -> [String: String] {
        [
            "grant_type": "authorization_code", "code": code, "client_id": clientID, "redirect_uri": redirectURI,
            "code_verifier": verifier,
        ]
    }

    func refreshFields(_ refreshToken: String) -> [String: String] {
        ["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": clientID]
    }

    /// A proof for one of the authorization server's endpoints.
    func proof(_ method: HTTPMethod, _ path: String, now: Int64, key: P256PrivateKey? = nil) throws -> String {
        try DPoP.proof(
            key: key ?? self.key, method: method.rawValue, url: origin + path, now: now, nonce: nonce)
    }
}

/// URL-encoded bodies and queries.
enum Form {
    static func encode(_ fields: [String: String]) -> [UInt8] {
        Array(query(fields).utf8)
    }

    static func query(_ fields: [String: String]) -> String {
        fields.sorted { $0.key < $1.key }.map { "\(escape($0.key))=\(escape($0.value))" }.joined(separator: "&")
    }

    static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? value
    }
}

/// The model of the sign-in page, read back from the JSON the fixture renders.
struct PageBody: Decodable, Equatable {
    var requestURI: String
    var clientName: String
    var loginHint: String?
    var error: String?
    var csrfToken: String
    var actionPath: String
    var status: Int
}

extension Response {
    var bytes: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The body as a JSON object, or empty.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }

    var page: PageBody? { try? JSONDecoder().decode(PageBody.self, from: Data(bytes)) }

    /// The query of the `Location` header, decoded.
    var redirectQuery: [String: String] {
        guard let location = headers["Location"], let items = URLComponents(string: location)?.queryItems else {
            return [:]
        }
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    var oauthError: String? { json["error"] as? String }
}
