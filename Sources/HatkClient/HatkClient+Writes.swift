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
        let output: UploadBlobOutput = try await transport.procedure(
            "dev.hatk.uploadBlob", body: body, contentType: mimeType, credentials: credentials)
        return output.blob
    }

    public func createRecord(
        collection: String, record: JSONValue, as credentials: DPoPCredentials
    ) async throws(HatkError)
        -> WriteOutput
    {
        try await transport.procedure(
            "dev.hatk.createRecord", json: .object(["collection": .string(collection), "record": record]), credentials: credentials)
    }

    public func putRecord(
        collection: String, rkey: String, record: JSONValue, as credentials: DPoPCredentials
    )
        async throws(HatkError) -> WriteOutput
    {
        try await transport.procedure(
            "dev.hatk.putRecord",
            json: .object(["collection": .string(collection), "rkey": .string(rkey), "record": record]),
            credentials: credentials)
    }

    public func deleteRecord(collection: String, rkey: String, as credentials: DPoPCredentials) async throws(HatkError) {
        struct Empty: Decodable {}
        let _: Empty = try await transport.procedure(
            "dev.hatk.deleteRecord", json: .object(["collection": .string(collection), "rkey": .string(rkey)]),
            credentials: credentials)
    }
}
