import ATProto
import HTTPServer
import Lexicon

extension EmbeddedBackend {
    /// `dev.hatk.getRecord`: one record in hatk's envelope, 404 when missing.
    func getRecord(_ request: Request) throws -> Response {
        guard let raw = request.query("uri") else { return XRPC.error(.badRequest, "Missing required parameter: uri") }
        guard let uri = try? ATURI(raw) else { return XRPC.error(.badRequest, "Invalid AT-URI: \(raw)") }
        guard let stored = try store.record(uri) else { return XRPC.error(.notFound, "Record not found") }
        var envelope = RecordEnvelope(
            uri: stored.uri.description, cid: stored.cid, did: stored.did, handle: stored.handle,
            indexedAt: stored.indexedAt, value: stored.value)
        envelope.labels = stored.selfLabels
        return XRPC.json(RecordOutput(record: envelope))
    }
}
