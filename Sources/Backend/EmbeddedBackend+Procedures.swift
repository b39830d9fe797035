import ATProto
import Foundation
import HTTPServer
import Lexicon

/// `POST /xrpc/<nsid>`: who the caller is and what they sent, then the area's handler (writes, blobs, private state),
/// each acting only for the authenticated viewer, within their token's scope.
extension EmbeddedBackend {
    /// Largest blob accepted: the story lexicon's `media.maxSize`.
    public static let maxBlobSize = 5_000_000
    /// Largest JSON input of any procedure; the biggest real one (a comment with facets) is a few kilobytes.
    static let maxJSONInput = 256 * 1024
    /// How far ahead of our clock a record's `createdAt` may be.
    public static var maxClockSkew: Double { WriteHandler.maxClockSkew }

    /// - Parameter nsid: the method, when the route names it (`uploadBlob`'s own); else the path's `:nsid`.
    func procedure(_ request: Request, nsid named: String? = nil) async throws -> Response {
        let nsid = try named ?? request.parameters.require("nsid")
        var response = await XRPC.answer(nsid) { try await self.dispatchProcedure(nsid, request) }
        if response.headers["DPoP-Nonce"] == nil, let nonce = authenticator?.currentDPoPNonce() {
            response.headers["DPoP-Nonce"] = nonce
        }
        return response
    }

    private func dispatchProcedure(_ nsid: String, _ request: Request) async throws -> Response {
        guard let procedure = Procedure(rawValue: nsid) else { return XRPC.error(.notFound, "Method not found: \(nsid.prefix(200))") }
        guard let viewer = await authenticator?.viewer(for: request) else {
            if let challenge = authenticator?.dpopChallenge(for: request) {
                // An atproto-profile client retries once with this nonce.
                var response = XRPC.error(.unauthorized, "Authentication required")
                response.headers["WWW-Authenticate"] = challenge.wwwAuthenticate
                response.headers["DPoP-Nonce"] = challenge.nonce
                return response
            }
            throw procedure.unauthenticated
        }
        let contentType = Self.mediaType(request)
        try procedure.check(viewer)
        if procedure == .uploadBlob { return try await files.uploadBlob(request, mimeType: contentType, viewer: viewer) }
        guard contentType == "application/json" else {
            return XRPC.error(.unsupportedMediaType, "Expected a JSON body (Content-Type: application/json)")
        }
        guard request.body.count <= Self.maxJSONInput else {
            return XRPC.error(.payloadTooLarge, "The JSON body is larger than \(Self.maxJSONInput) bytes")
        }
        let body = Data(try request.body.load())
        switch procedure {
        case .uploadBlob: return XRPC.error(.notFound, "Method not found: \(nsid)")
        case .createRecord, .putRecord, .deleteRecord:
            guard let input = try? JSONDecoder().decode(WriteHandler.WriteInput.self, from: body) else {
                throw BackendError.invalidRequest("InvalidRequest: the body is not the expected JSON object")
            }
            if procedure == .deleteRecord { return try await writes.deleteRecord(input, viewer: viewer) }
            return try await writes.writeRecord(input, viewer: viewer, replace: procedure == .putRecord)
        case .putPreference, .createReport, .muteActor, .unmuteActor, .markStoriesViewed:
            guard let input = try? JSONDecoder().decode(JSONValue.self, from: body), case .object(let fields) = input else {
                throw BackendError.invalidRequest("InvalidRequest: the body is not a JSON object")
            }
            return try privateState.handle(procedure, fields, viewer: viewer.did)
        }
    }

    /// The body's media type, lower-cased, without parameters.
    static func mediaType(_ request: Request) -> String {
        (request.headers["Content-Type"] ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
    }
}
