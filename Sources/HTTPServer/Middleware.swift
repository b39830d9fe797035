/// An async request handler.
public typealias Handler = @Sendable (Request) async throws -> Response

/// Code that runs around every routed handler: it may change the request, answer early, or change the response.
public protocol Middleware: Sendable {
    /// Handles `request`, usually by calling `next` and adjusting its response.
    /// - Parameters:
    ///   - request: The request, with path parameters already filled in.
    ///   - next: The rest of the chain (inner middleware, then the route handler).
    func handle(_ request: Request, next: Handler) async throws -> Response
}
