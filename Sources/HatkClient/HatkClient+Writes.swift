public import ATProto
import Crypto
public import Foundation
public import Lexicon
import Outbound

/// What a write needs to act for a signed-in person: their DPoP key and access token.
public struct DPoPCredentials: Sendable {
    public var dpopKey: [UInt8]
    public var accessToken: String
    /// The origin DPoP proofs name (`htu`) when it differs from where the client sends requests: the embedded
    /// backend is called over loopback, while its tokens were issued to the origin the browser uses.
    public var resourceOrigin: URL?

    public init(dpopKey: [UInt8], accessToken: String, resourceOrigin: URL? = nil) {
        self.dpopKey = dpopKey
        self.accessToken = accessToken
        self.resourceOrigin = resourceOrigin
    }

    /// `url` as a proof names it: on `resourceOrigin` when set.
    func proofURL(for url: URL) -> String {
        guard let origin = resourceOrigin, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.scheme = origin.scheme
        components.host = origin.host
        components.port = origin.port
        return components.url?.absoluteString ?? url.absoluteString
    }
}

/// `dev.hatk.*` writes, each signed with `Authorization: DPoP <token>` and a fresh proof carrying `ath`.
extension HatkClient {
    /// Uploads a blob. A type other than `image/*` is refused here, before anything is sent, unless the client was
    /// made with `sendsClips` (our embedded backend).
    public func uploadBlob(
        _ bytes: [UInt8], mimeType: String, as credentials: DPoPCredentials
    ) async throws(HatkError)
        -> BlobRef
    {
        try await uploadBlob(.bytes(Data(bytes)), mimeType: mimeType, as: credentials)
    }

    /// Uploads the file at `path` as a blob, read as it is sent (a clip is never held in memory on its way out);
    /// the same types are refused as by `uploadBlob(_:mimeType:as:)`.
    public func uploadBlob(
        fileAt path: String, mimeType: String, as credentials: DPoPCredentials
    ) async throws(HatkError)
        -> BlobRef
    {
        try await uploadBlob(.file(path: path), mimeType: mimeType, as: credentials)
    }

    private func uploadBlob(
        _ body: OutboundRequest.Body, mimeType: String, as credentials: DPoPCredentials
    ) async throws(HatkError)
        -> BlobRef
    {
        // The last line of defence: whatever a caller does, nothing but an image leaves for a server that may be Grain's.
        guard mimeType.hasPrefix("image/") || sendsClips else {
            throw HatkError(
                kind: .http(status: 415, error: "NotSent"), endpoint: "dev.hatk.uploadBlob",
                detail: "grain-stories sends only images to \(baseURL.host ?? "this server"); a \(mimeType) blob was not sent")
        }
        let output: UploadBlobOutput = try await procedure(
            "dev.hatk.uploadBlob", body: body, contentType: mimeType, credentials: credentials)
        return output.blob
    }

    public func createRecord(
        collection: String, record: JSONValue, as credentials: DPoPCredentials
    ) async throws(HatkError)
        -> WriteOutput
    {
        try await procedure("dev.hatk.createRecord", json: .object(["collection": .string(collection), "record": record]), credentials: credentials)
    }

    public func putRecord(
        collection: String, rkey: String, record: JSONValue, as credentials: DPoPCredentials
    )
        async throws(HatkError) -> WriteOutput
    {
        try await procedure(
            "dev.hatk.putRecord",
            json: .object(["collection": .string(collection), "rkey": .string(rkey), "record": record]),
            credentials: credentials)
    }

    public func deleteRecord(collection: String, rkey: String, as credentials: DPoPCredentials) async throws(HatkError) {
        struct Empty: Decodable {}
        let _: Empty = try await procedure(
            "dev.hatk.deleteRecord", json: .object(["collection": .string(collection), "rkey": .string(rkey)]),
            credentials: credentials)
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
    public func query<Output: Decodable>(
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
                    key: key, method: request.method, url: credentials.proofURL(for: htu), now: clock(),
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
}
