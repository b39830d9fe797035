public import ATProto
public import Foundation
import Lexicon
public import Outbound

/// A typed XRPC client for a hatk server: grain.social, a self-hosted hatk, or our embedded backend,
/// always over HTTP so that every deployment runs the same code path.
public final class HatkClient: XRPCReads {
    public let baseURL: URL
    let http: OutboundHTTP
    let timeout: Duration
    /// Shared with the OAuth client, so a nonce learnt at the token endpoint is used on XRPC calls too.
    public let nonces: ReceivedNonces
    /// Unix seconds for DPoP proofs' `iat`; injectable so tests can move time.
    let clock: @Sendable () -> Int64
    let cache: ReadCache
    /// Told of every call: its method, how long it took and how it ended (for metrics).
    let observe: CallObserver?
    /// Whether `uploadBlob` may send anything but an image: only to our embedded backend. A Grain session may upload
    /// only `image/*`, and hatk answers any other type by deleting the person's stored session.
    public let sendsClips: Bool

    /// What a call observer hears: the XRPC method (a name our code chose), seconds, and `2xx`, `4xx`, `5xx`,
    /// `timeout` or `unreachable`.
    public typealias CallObserver = @Sendable (_ nsid: String, _ seconds: Double, _ outcome: String) -> Void

    /// - Parameters:
    ///   - baseURL: the server's origin, such as `https://grain.social`.
    ///   - timeout: how long one call may take before it fails with `.timeout`.
    ///   - policy: which addresses calls may connect to. Public ones only by default: a hatk on loopback or the
    ///     LAN (the embedded backend) needs its origin in the allowance.
    ///   - observe: told of every call's method, time and outcome; nil for nobody.
    ///   - keepsConnectionsOpen: false closes each connection once its answer is in: for the embedded backend on the
    ///     server's own listener, which is called only to write, so the server holds no connection to itself.
    ///   - sendsClips: lets `uploadBlob` send `video/*` (our embedded backend only).
    public init(
        baseURL: URL, timeout: TimeInterval = 10, nonces: ReceivedNonces = ReceivedNonces(),
        clock: @escaping @Sendable () -> Int64 = { UTCTime.now.unixSeconds },
        cacheTTL: Duration = .zero, policy: AddressPolicy = .publicOnly, observe: CallObserver? = nil, keepsConnectionsOpen: Bool = true,
        sendsClips: Bool = false
    ) {
        self.sendsClips = sendsClips
        self.observe = observe
        cache = ReadCache(ttl: cacheTTL)
        self.baseURL = baseURL
        self.nonces = nonces
        self.clock = clock
        self.timeout = .seconds(timeout)
        // No cookie engine and no redirects: the client sends exactly what each call says.
        var configuration = OutboundHTTP.Configuration(policy: policy)
        configuration.keepsConnectionsOpen = keepsConnectionsOpen
        http = OutboundHTTP(configuration: configuration)
    }

    func read<Output: Decodable>(_ nsid: String, _ parameters: [(String, String)]) async throws(HatkError) -> Output {
        try await query(nsid, parameters)
    }

    /// One XRPC query: `GET /xrpc/<nsid>?…`, decoded into `Output`. Anonymous answers may come from the read cache.
    public func query<Output: Decodable>(
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
    public func invalidateCache() {
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
}
