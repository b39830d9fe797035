import ATProto
import Crypto
import Foundation
import HTTPServer
import Synchronization
import TestSupport

@testable import AuthServer

/// An authorization server over a fresh data directory with two household accounts that have passwords.
///
/// The server is ours under ``origins``; a request's origin is `http://` plus its Host header when that is one of
/// them, and ``issuer`` for requests without a Host (most tests).
struct AuthFixture {
    static let issuer = "http://127.0.0.1:8080"
    /// The origins a household reaches the fixture under: loopback, the LAN address and the box's mDNS name.
    static let origins = [issuer, "http://192.168.1.20:8080", "http://box.local:8080"]
    static let password = "correct horse battery staple"

    let server: AuthServer
    let router: Router
    let clock: TestClock
    let accounts: TestDirectory
    let maya: DID
    let jonas: DID
    let directory: String

    init(origins: [String] = AuthFixture.origins, _ configure: (inout AuthServerConfiguration) -> Void = { _ in }) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auth-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let accounts = TestDirectory()
        let maya = accounts.add(handle: "maya.home.test")
        let jonas = accounts.add(handle: "jonas.home.test")
        try self.init(
            directory: directory, accounts: accounts, maya: maya, jonas: jonas, clock: TestClock(.fixture), origins: origins,
            configure)
        // Hashed here, on the test's thread: the fixture is built synchronously.
        let parameters = server.passwords.parameters
        try server.passwords.storePassword(hash: try PasswordHash.hash(Self.password, parameters: parameters), for: maya)
        try server.passwords.storePassword(hash: try PasswordHash.hash("jonas's own password", parameters: parameters), for: jonas)
    }

    /// A second server over `earlier`'s data directory and accounts, as after a restart with a new configuration.
    init(reopening earlier: AuthFixture, _ configure: (inout AuthServerConfiguration) -> Void = { _ in }) throws {
        try self.init(
            directory: earlier.directory, accounts: earlier.accounts, maya: earlier.maya, jonas: earlier.jonas,
            clock: earlier.clock, origins: AuthFixture.origins, configure)
    }

    private init(
        directory: String, accounts: TestDirectory, maya: DID, jonas: DID, clock: TestClock, origins: [String],
        _ configure: (inout AuthServerConfiguration) -> Void
    ) throws {
        let ours = Set(origins)
        var configuration = AuthServerConfiguration(
            isOwnOrigin: { ours.contains($0) },
            requestOrigin: { request in
                guard let host = request.headers["Host"] else { return AuthFixture.issuer }
                let origin = "http://" + host.lowercased()
                return ours.contains(origin) ? origin : nil
            })
        configuration.passwordParameters = .fastForTests
        configure(&configuration)
        server = try AuthServer(
            dataDirectory: directory, configuration: configuration, accounts: accounts,
            sealingKey: Self.sealingKey, clock: { clock.now }, renderSignIn: Self.render)
        var router = Router()
        server.register(on: &router)
        self.router = router
        self.clock = clock
        self.accounts = accounts
        self.maya = maya
        self.jonas = jonas
        self.directory = directory
    }

    static let sealingKey = SealingKey.random()

    /// Renders the page model as JSON so tests can read it back.
    static let render: @Sendable (SignInPage) -> Response = { page in
        Response.json(page, status: HTTPStatus(code: page.status))
    }

    func send(_ request: Request) async -> Response {
        await router.respond(to: request)
    }

    // MARK: Steps of the flow

    /// PAR as our front sends it: over loopback (Host `127.0.0.1:8080`), the proof naming the client's origin.
    func par(
        _ client: TestClient, _ fields: [String: String]? = nil, proof: String? = nil, host: String = "127.0.0.1:8080",
        remoteAddress: String = "127.0.0.1", frontKey: String? = nil
    ) async throws -> Response {
        var request = Request(
            method: .post, path: "/oauth/par", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Form.encode(fields ?? client.parFields), remoteAddress: remoteAddress)
        if let frontKey { request.headers[AuthServer.frontKeyHeader] = frontKey }
        request.headers["DPoP"] = try proof ?? client.proof(.post, "/oauth/par", now: clock.unixSeconds)
        request.headers["Host"] = host
        return await send(request)
    }

    /// PAR that must succeed; returns the request_uri.
    func pushedRequestURI(_ client: TestClient, _ fields: [String: String]? = nil) async throws -> String {
        let response = try await par(client, fields)
        guard response.status.code == 201, let uri = response.json["request_uri"] as? String else {
            throw FixtureError("PAR failed: \(response.status) \(response.text)")
        }
        return uri
    }

    func authorizePage(requestURI: String, clientID: String) async -> Response {
        await send(
            Request(method: .get, path: "/oauth/authorize", query: Form.query(["request_uri": requestURI, "client_id": clientID])))
    }

    /// Which CSRF token a submitted form carries.
    enum CSRF {
        /// The one the real sign-in page shows.
        case fromPage
        case none
        case value(String)
    }

    /// Posts the sign-in form the way a browser on `origin` does (no `Origin` header when nil).
    func submit(
        _ client: TestClient, requestURI: String, username: String = "maya", password: String = AuthFixture.password,
        csrf: CSRF = .fromPage, deny: Bool = false, origin: String? = AuthFixture.issuer,
        remoteAddress: String = "192.168.1.20", extraHeaders: HTTPHeaders = [:]
    ) async -> Response {
        var fields = ["request_uri": requestURI, "username": username, "password": password]
        switch csrf {
        case .fromPage:
            fields["csrf"] = await authorizePage(requestURI: requestURI, clientID: client.clientID).page?.csrfToken
        case .none:
            break
        case .value(let value):
            fields["csrf"] = value
        }
        if deny { fields["deny"] = "Deny" }
        var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        if let origin { headers["Origin"] = origin }
        for (name, value) in extraHeaders { headers[name] = value }
        return await send(
            Request(
                method: .post, path: "/oauth/authorize", headers: headers, body: Form.encode(fields),
                remoteAddress: remoteAddress))
    }

    /// PAR, sign-in page and a correct password: the code from the redirect.
    func code(
        for client: TestClient, username: String = "maya", password: String = AuthFixture.password
    )
        async throws -> String
    {
        let requestURI = try await pushedRequestURI(client)
        let response = await submit(
            client, requestURI: requestURI, username: username, password: password, origin: client.origin)
        guard response.status.code == 303, let code = response.redirectQuery["code"] else {
            throw FixtureError("sign-in failed: \(response.status) \(response.text)")
        }
        return code
    }

    func token(_ client: TestClient, _ fields: [String: String], key: P256PrivateKey? = nil) async throws -> Response {
        var request = Request(
            method: .post, path: "/oauth/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Form.encode(fields))
        request.headers["DPoP"] = try client.proof(.post, "/oauth/token", now: clock.unixSeconds, key: key)
        request.headers["Host"] = "127.0.0.1:8080"
        return await send(request)
    }

    func exchange(_ client: TestClient, code: String) async throws -> Response {
        try await token(client, client.codeFields(code))
    }

    /// The whole flow; returns the token response body.
    func signedIn(_ client: TestClient) async throws -> [String: Any] {
        let response = try await exchange(client, code: try await code(for: client))
        guard response.status.code == 200 else { throw FixtureError("token failed: \(response.text)") }
        return response.json
    }

    /// A backend write request carrying the token and a proof for it.
    func resourceRequest(
        _ client: TestClient, accessToken: String, method: HTTPMethod = .post,
        path: String = "/xrpc/dev.hatk.createRecord", proofKey: P256PrivateKey? = nil, proofURL: String? = nil,
        proofToken: String? = nil, iat: Int64? = nil, nonce: String? = nil
    ) throws -> Request {
        let proof = try DPoP.proof(
            key: proofKey ?? client.key, method: method.rawValue, url: proofURL ?? (client.origin + path),
            now: iat ?? clock.unixSeconds, accessToken: proofToken ?? accessToken, nonce: nonce)
        return Request(
            method: method, path: path, headers: ["Authorization": "DPoP \(accessToken)", "DPoP": proof])
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension AuthServer {
    /// The account a resource request acts for, for tests that need only that.
    func viewer(for request: Request) async -> DID? {
        await resourceViewer(for: request)?.did
    }
}
