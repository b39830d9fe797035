import Foundation
import HTTPServer
import Lexicon
import Logging
import Storage

/// hatk's response conventions: CORS on everything, `{"error": …}` bodies.
enum XRPC {
    static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok) -> Response {
        // Encoding our own Codable views cannot fail; a failure would be a programming error worth a 500.
        guard let data = try? JSONEncoder.canonical.encode(value) else {
            return Response.text("Internal Server Error", status: .internalServerError)
        }
        var response = Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(Array(data)))
        response.allow(.xrpc)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    static func error(_ status: HTTPStatus, _ message: String) -> Response {
        json(XRPCErrorBody(error: message), status: status)
    }

    /// An error in the atproto form: a machine-readable name and a sentence for people.
    static func error(_ status: HTTPStatus, error: String, message: String) -> Response {
        json(XRPCErrorBody(error: error, message: message), status: status)
    }

    /// An error raised outside a procedure's handler (routing, admission, a body that could not be received).
    static func error(_ error: HTTPError) -> Response {
        // A blob's body streams to disk: a full disk refuses it before the handler, and the client should read the
        // same error as when the blob's own files do not fit.
        if error.status == .insufficientStorage {
            return XRPC.error(
                .insufficientStorage, error: "InsufficientStorage", message: "The server has no room left to receive this upload; nothing was kept")
        }
        return XRPC.error(error.status, error.message.isEmpty ? error.status.reasonPhrase : error.message)
    }

    static func error(_ failure: BackendError) -> Response {
        json(XRPCErrorBody(error: failure.error, message: failure.message), status: failure.status)
    }

    /// Runs a handler, turning a ``BackendError`` into hatk's answer and a database failure into a logged 500.
    static func answer(_ nsid: String, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let failure as BackendError {
            return XRPC.error(failure)
        } catch let error as StorageError where error.isFull {
            log.error("\(nsid): \(error)")
            return XRPC.error(.insufficientStorage, error: "InsufficientStorage", message: "The server has no room left; nothing was changed")
        } catch {
            log.error("\(nsid): \(error)")
            return XRPC.error(.internalServerError, error: "InternalServerError", message: "The request failed on the server")
        }
    }
}
