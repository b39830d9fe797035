import ATProto
import Clocks
import Crypto
import Foundation
import Lexicon
import Outbound

/// How the hatk client reaches its server: one XRPC call at a time, anonymous (and cached) or signed with DPoP, its
/// answer decoded or turned into ``HatkError``. Shared by ``HatkClient``'s writes and ``HatkReader``'s reads.
final class HatkTransport: Sendable {
    let baseURL: URL
    let http: OutboundHTTP
    let timeout: Duration
    /// Shared with the OAuth client, so a nonce learnt at the token endpoint is used on XRPC calls too.
    let nonces: ReceivedNonces
    /// Unix seconds for DPoP proofs' `iat`; injectable so tests can move time.
    let clock: @Sendable () -> UTCTime
    let cache: ReadCache
    /// Told of every call: its method, how long it took and how it ended (for metrics).
    let observe: HatkClient.CallObserver?

    init(
        baseURL: URL, timeout: TimeInterval, nonces: ReceivedNonces, clock: @escaping @Sendable () -> UTCTime, monotonic: MonotonicClock,
        cacheTTL: Duration,
        policy: AddressPolicy, observe: HatkClient.CallObserver?, keepsConnectionsOpen: Bool
    ) {
        self.observe = observe
        cache = ReadCache(ttl: cacheTTL, clock: monotonic)
        self.baseURL = baseURL
        self.nonces = nonces
        self.clock = clock
        self.timeout = .seconds(timeout)
        // No cookie engine and no redirects: the client sends exactly what each call says.
        var configuration = OutboundHTTP.Configuration(policy: policy)
        configuration.keepsConnectionsOpen = keepsConnectionsOpen
        http = OutboundHTTP(configuration: configuration)
    }

    /// One XRPC query: `GET /xrpc/<nsid>?…`, decoded into `Output`. Anonymous answers may come from the read cache.
    func query<Output: Decodable>(
        _ nsid: String, _ parameters: [(String, String)]
    ) async throws(HatkError)
        -> Output
    {
        let url = try xrpcURL(nsid, parameters)
        if let cached = cache.get(url.absoluteString) {
            return try decode(Output.self, data: cached, status: 200, contentType: "application/json", nsid: nsid)
        }
        let request = OutboundRequest(url: url, headers: ["Accept": "application/json"], timeout: timeout)
        let (data, status, _, contentType) = try await send(request, nsid: nsid)
        let output = try decode(Output.self, data: data, status: status, contentType: contentType, nsid: nsid)
        cache.put(url.absoluteString, data)
        return output
    }

    /// `<base>/xrpc/<nsid>?<parameters>`, percent-encoded.
    func xrpcURL(_ nsid: String, _ parameters: [(String, String)]) throws(HatkError) -> URL {
        guard var components = URLComponents(url: baseURL.appendingPathComponent("xrpc/\(nsid)"), resolvingAgainstBaseURL: false)
        else { throw HatkError(kind: .malformed, endpoint: nsid, detail: "the server URL \(baseURL) cannot take a path") }
        if !parameters.isEmpty {
            components.queryItems = parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
            // URLComponents leaves '+' alone, which servers read as a space.
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        guard let url = components.url else {
            throw HatkError(kind: .malformed, endpoint: nsid, detail: "the request URL could not be built")
        }
        return url
    }

    /// Forgets cached reads, after a write that changes what they would say.
    func invalidateCache() {
        cache.removeAll()
    }

    /// Sends one request, remembers any `DPoP-Nonce` the server gives, and tells whether the answer was a
    /// `use_dpop_nonce` challenge (only signed calls act on that) and what Content-Type it came with.
    func send(
        _ request: OutboundRequest, nsid: String
    ) async throws(HatkError) -> (data: Data, status: Int, nonceChallenge: Bool, contentType: String?) {
        let response: OutboundResponse
        let started = ContinuousClock.now
        do {
            response = try await http.send(request)
        } catch {
            let kind: HatkError.Kind = error.kind == .timeout ? .timeout : .unreachable
            observe?(nsid, Self.seconds(since: started), kind == .timeout ? "timeout" : "unreachable")
            // A refused address reads as unreachable: to the caller the server is simply not there.
            throw HatkError(kind: kind, endpoint: nsid, detail: "\(error)")
        }
        observe?(nsid, Self.seconds(since: started), "\(response.status / 100)xx")
        nonces.update(for: request.url, nonce: response.headers["DPoP-Nonce"])
        let challenge = (response.headers["WWW-Authenticate"] ?? "").contains("use_dpop_nonce")
        return (response.body, response.status, challenge, response.headers["Content-Type"])
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Decodes a 2xx JSON answer, or turns an error status into ``HatkError``. Only `application/json` bodies are
    /// parsed: a hatk that serves a web app answers an XRPC method it does not know with its HTML page, 200 included.
    func decode<Output: Decodable>(
        _ type: Output.Type, data: Data, status: Int, contentType: String?, nsid: String
    ) throws(HatkError)
        -> Output
    {
        let isJSON = Self.isJSON(contentType)
        guard (200..<300).contains(status) else {
            let body = isJSON ? try? JSONDecoder().decode(XRPCErrorBody.self, from: data) : nil
            throw HatkError(kind: .http(status: status, error: body?.error ?? "no error body"), endpoint: nsid, detail: body?.message ?? "")
        }
        guard isJSON else {
            throw HatkError(kind: .notJSON(status: status, contentType: contentType ?? "none"), endpoint: nsid)
        }
        do {
            return try JSONDecoder().decode(Output.self, from: data)
        } catch {
            throw HatkError(kind: .malformed, endpoint: nsid, detail: "\(error)")
        }
    }

    /// `application/json`, with or without parameters, in any case.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first else { return false }
        return type.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    func procedure<Output: Decodable>(
        _ nsid: String, json: JSONValue, credentials: DPoPCredentials
    ) async throws(HatkError)
        -> Output
    {
        let body = (try? JSONEncoder().encode(json)) ?? Data()
        return try await procedure(nsid, body: .bytes(body), contentType: "application/json", credentials: credentials)
    }

    /// One signed POST.
    func procedure<Output: Decodable>(
        _ nsid: String, body: OutboundRequest.Body, contentType: String, credentials: DPoPCredentials
    ) async throws(HatkError) -> Output {
        let url = try xrpcURL(nsid, [])
        let request = OutboundRequest(
            method: "POST", url: url, headers: ["Content-Type": contentType, "Accept": "application/json"], body: body, timeout: timeout)
        let (data, status, type) = try await signed(request, nsid: nsid, credentials: credentials)
        if (200..<300).contains(status) { invalidateCache() }
        return try decode(Output.self, data: data, status: status, contentType: type, nsid: nsid)
    }

    /// A query signed as the viewer, so the answer is personalised (`viewer.fav`, `unviewedCount`, block and mute
    /// filtering). Never cached: the read cache holds anonymous answers only.
    func query<Output: Decodable>(
        _ nsid: String, _ parameters: [(String, String)], as credentials: DPoPCredentials?
    ) async throws(HatkError) -> Output {
        guard let credentials else { return try await query(nsid, parameters) }
        let request = OutboundRequest(url: try xrpcURL(nsid, parameters), headers: ["Accept": "application/json"], timeout: timeout)
        let (data, status, type) = try await signed(request, nsid: nsid, credentials: credentials)
        return try decode(Output.self, data: data, status: status, contentType: type, nsid: nsid)
    }

    /// Sends `request` with `Authorization: DPoP <token>` and a fresh proof for its method and URL (query left out,
    /// as DPoP's `htu` is), retrying once when the server answers with a `use_dpop_nonce` challenge.
    func signed(
        _ request: OutboundRequest, nsid: String, credentials: DPoPCredentials
    ) async throws(HatkError) -> (data: Data, status: Int, contentType: String?) {
        let key: P256PrivateKey
        do { key = try P256PrivateKey(rawRepresentation: credentials.dpopKey) } catch {
            throw HatkError(kind: .http(status: 401, error: "unreadable DPoP key"), endpoint: nsid)
        }
        var request = request
        request.headers["Authorization"] = "DPoP \(credentials.accessToken)"
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        let htu = components?.url ?? request.url
        for attempt in 0..<2 {
            do {
                request.headers["DPoP"] = try DPoP.proof(
                    key: key, method: request.method, url: credentials.proofURL(for: htu), now: clock().unixSeconds,
                    accessToken: credentials.accessToken, nonce: nonces.nonce(for: htu))
            } catch {
                throw HatkError(kind: .http(status: 401, error: "could not sign a DPoP proof"), endpoint: nsid)
            }
            let (data, status, challenge, contentType) = try await send(request, nsid: nsid)
            if attempt == 0, status == 401, challenge { continue }
            return (data, status, contentType)
        }
        throw HatkError(kind: .http(status: 401, error: "use_dpop_nonce"), endpoint: nsid)
    }

    static func page(_ limit: Int, _ cursor: String?) -> [(String, String)] {
        var parameters = [("limit", String(limit))]
        if let cursor { parameters.append(("cursor", cursor)) }
        return parameters
    }
}
