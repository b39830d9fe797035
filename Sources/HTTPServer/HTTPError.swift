/// An error that becomes an HTTP response: thrown by handlers and middleware, rendered by `Router.errorResponder`.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The response status.
    public var status: HTTPStatus
    /// A message safe to show to the client (the default error responder sends it as the body).
    public var message: String
    /// Headers added to the error response (for example `Allow` on 405, `Retry-After` on 429).
    public var headers: HTTPHeaders

    /// - Parameters:
    ///   - status: The response status.
    ///   - message: Client-visible text; empty means the status's reason phrase.
    ///   - headers: Headers the error response must carry.
    public init(_ status: HTTPStatus, _ message: String = "", headers: HTTPHeaders = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// The status and message, for logs.
    public var description: String {
        message.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(message)"
    }
}
