import Foundation

/// What a response carries after its headers.
public enum ResponseBody: Sendable {
    /// No body (`Content-Length: 0`).
    case empty
    /// Bytes held in memory.
    case bytes([UInt8])
    /// A file streamed by the server from disk (with sendfile): `length` bytes from `offset`, and `length` becomes
    /// `Content-Length`. A file that cannot be opened when the response is sent turns into a 404.
    case file(path: String, offset: Int64 = 0, length: Int64)
}

/// An HTTP response. `Date` and `Content-Length` are added by the server.
public struct Response: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body.
    public var body: ResponseBody

    /// - Parameters:
    ///   - status: The status, 200 by default.
    ///   - headers: The header fields.
    ///   - body: The body, empty by default.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An HTML page (`text/html; charset=utf-8`).
    public static func html(_ html: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(Array(html.utf8)))
    }

    /// Plain text (`text/plain; charset=utf-8`).
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// Already-encoded JSON (`application/json`).
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(bytes))
    }

    /// `value` encoded with `JSONEncoder` (slashes unescaped). An encoding failure is logged and becomes a 500,
    /// since it is a programming error rather than something the client did.
    public static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do {
            let bytes: [UInt8] = Array(try encoder.encode(value))
            return Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(bytes))
        } catch {
            ServerLog.error("JSON encoding of \(T.self) failed: \(error)")
            return text("Internal Server Error", status: .internalServerError)
        }
    }

    /// A redirect to `location` (303 See Other by default, the right answer to a form POST).
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location])
    }
}
