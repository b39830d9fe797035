/// Where a route's request body is kept while it arrives.
public enum BodyStorage: Sendable, Equatable {
    /// In memory (the default): for forms, JSON and other small bodies.
    case memory
    /// Streamed to a new private file in `directory` with only libmicrohttpd's read buffer in memory; the handler
    /// gets `BodyContent.file`. The route's body limit is enforced while the bytes stream. The file is removed once
    /// the handler's response is returned or the request fails; `TemporaryBodies.sweep(directory:)` at start removes
    /// what a killed server left behind.
    case temporaryFile(directory: String)
}

/// Decides on a request from its head alone, before any body byte is read: nil lets it in, an error refuses it at
/// once (rendered by the route's group, sent with `Connection: close`, the body never read). It runs on a server
/// thread, so it must be quick and never block (a cookie or header check, an in-memory lookup).
public typealias AdmissionCheck = @Sendable (RequestHead) -> HTTPError?

/// How a route takes its request body.
public struct RouteOptions: Sendable {
    /// The largest body accepted, in bytes; nil uses `Router.defaultBodyLimit`.
    public var bodyLimit: Int?
    /// Where the body is kept while it arrives.
    public var bodyStorage: BodyStorage
    /// Checked after the head and before the body. GET and HEAD requests that declare no body skip it: they have
    /// nothing to refuse early, so it never replaces the handler's own checks.
    public var admission: AdmissionCheck?

    /// - Parameters: see the properties.
    public init(bodyLimit: Int? = nil, bodyStorage: BodyStorage = .memory, admission: AdmissionCheck? = nil) {
        self.bodyLimit = bodyLimit
        self.bodyStorage = bodyStorage
        self.admission = admission
    }
}

/// Renders errors: 404 and 405 under a group's prefix, thrown `HTTPError`s, the generic 500, and the 413, 503 and
/// admission refusals the server answers on its own threads (so it must be quick and never block). The error's
/// headers are added to whatever it returns.
public typealias ErrorResponder = @Sendable (HTTPError, Request) -> Response

/// Answers a complete request without a body at once, on the server thread and without starting a task, when it
/// can (a page cache hit); nil sends it down the normal async path. It runs outside the middleware, so what it
/// returns must be a finished response (prepared once and sent as it is), and it must be quick and never block. It sees
/// the method, the target, and the Cookie, Host, X-Forwarded-Host, X-Forwarded-Proto, If-None-Match, Range and If-Range
/// headers only, and the peer address only when the server trusts a proxy (so that `forwardedHost` and the client
/// address mean what they mean on the full path; without a trusted proxy, forwarded headers are anyone's: use them as
/// cache keys, never to decide anything).
public typealias ImmediateResponder = @Sendable (Request) -> PreparedResponse?

/// Where routes can be registered: a `Router` (its root group) or one `RouteGroup`, so one `register(on:)` serves
/// both.
public protocol RouteRegistry {
    /// Registers a route; see `RouteGroup.on(_:_:options:_:)`.
    mutating func on(_ method: HTTPMethod, _ pattern: String, options: RouteOptions, _ handler: @escaping Handler)
    /// Adds middleware around every handler registered here; the first added is the outermost.
    mutating func use(_ middleware: any Middleware)
}

extension RouteRegistry {
    /// Registers a route.
    /// - Parameters:
    ///   - method: The method; a `GET` route also answers `HEAD` unless a `HEAD` route matches.
    ///   - pattern: `/literal/:name/*rest`: `:name` matches one non-empty segment, a final `*name` matches the
    ///     non-empty rest of the path (slashes included). Literal segments win over parameters. The full path,
    ///     including the group's prefix.
    ///   - bodyLimit: The largest request body accepted, in bytes; nil uses `Router.defaultBodyLimit`.
    ///   - bodyStorage: Memory, or a temporary file in a directory.
    ///   - admission: A check on the head before the body is read.
    ///   - handler: Produces the response.
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, bodyLimit: Int? = nil, bodyStorage: BodyStorage = .memory,
        admission: AdmissionCheck? = nil, _ handler: @escaping Handler
    ) {
        on(method, pattern, options: RouteOptions(bodyLimit: bodyLimit, bodyStorage: bodyStorage, admission: admission), handler)
    }
}
