import ATProto
import Foundation
import HTTPServer
import Synchronization

/// A hatk that takes writes on 127.0.0.1: every procedure is recorded with its JSON body and answered as hatk
/// would (a new record's URI, `{}`), or refused with a chosen status for the methods a test names.
final class StubHatk: Sendable {
    struct Call: Sendable {
        var nsid: String
        var body: JSONValue
        var authorization: String?
    }

    let server: HTTPServer
    let url: URL
    private let state = Mutex<(calls: [Call], failing: [String: Int], slow: [String: Duration], count: Int)>(([], [:], [:], 0))

    init() throws {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.logsProtocolErrors = false
        var router = Router()
        let box = Box()
        router.on(.post, "/xrpc/:nsid") { request in
            guard let stub = box.stub else { return .text("gone", status: .serviceUnavailable) }
            let nsid = try request.parameters.require("nsid")
            if let delay = stub.state.withLock({ $0.slow[nsid] }) { try? await Task.sleep(for: delay) }
            return stub.answer(nsid, request)
        }
        server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        url = URL(string: "http://127.0.0.1:\(server.port)")!
        box.stub = self
    }

    /// Lets the router's handler reach the stub once it exists.
    final class Box: @unchecked Sendable {
        var stub: StubHatk?
    }

    /// Makes `nsid` answer `status` with hatk's error body from now on.
    func fail(_ nsid: String, status: Int = 500) {
        state.withLock { $0.failing[nsid] = status }
    }

    /// Makes `nsid` answer only after `delay` from now on (a story server under load).
    func slow(_ nsid: String, by delay: Duration) {
        state.withLock { $0.slow[nsid] = delay }
    }

    var calls: [Call] { state.withLock { $0.calls } }

    func calls(_ nsid: String) -> [Call] { calls.filter { $0.nsid == nsid } }

    func answer(_ nsid: String, _ request: Request) -> Response {
        let body = (try? JSONDecoder().decode(JSONValue.self, from: Data(request.body.inMemory ?? []))) ?? .null
        let (failing, n) = state.withLock { state -> (Int?, Int) in
            state.calls.append(Call(nsid: nsid, body: body, authorization: request.headers["Authorization"]))
            state.count += 1
            return (state.failing[nsid], state.count)
        }
        if let failing {
            return Response.json(Array(#"{"error":"InternalServerError"}"#.utf8), status: HTTPStatus(code: failing))
        }
        switch nsid {
        case "dev.hatk.createRecord":
            let collection = body["collection"]?.stringValue ?? "x"
            // The harness's tokens are `at-<handle>`, its DIDs the handle's first letter 24 times.
            let handle = (request.headers["Authorization"] ?? "").replacingOccurrences(of: "DPoP at-", with: "")
            let uri = "at://did:plc:\(String(repeating: String(handle.prefix(1)), count: 24))/\(collection)/3kstub\(n)aaaaa"
            return Response.json(Array(#"{"uri":"\#(uri)","cid":"bafystub\#(n)"}"#.utf8))
        case "dev.hatk.uploadBlob":
            let type = request.headers["Content-Type"] ?? "image/jpeg"
            let size = request.body.inMemory?.count ?? 0
            return Response.json(
                Array(#"{"blob":{"$type":"blob","ref":{"$link":"bafkreistub\#(n)"},"mimeType":"\#(type)","size":\#(size)}}"#.utf8))
        case "dev.hatk.createReport":
            return Response.json(
                Array(#"{"id":\#(n),"subject":{},"label":"spam","reportedBy":"did:plc:stubviewer","createdAt":"2026-12-01T12:00:00.000Z"}"#.utf8))
        default:
            return Response.json(Array("{}".utf8))
        }
    }

    func stop() async { await server.shutdown() }
}
