/// Maps method and path to handlers, runs middleware, and turns errors into responses.
public struct Router: Sendable {
    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let bodyLimit: Int?
        let handler: Handler
    }

    private var routes: [Route] = []
    private var middlewares: [any Middleware] = []

    /// The body limit of routes registered without one: 64 KiB unless set.
    public var defaultBodyLimit: Int = 64 * 1024

    /// Answers a complete request at once, on the server thread and without starting a task, when it can
    /// (a page cache hit); nil sends the request down the normal async path. It runs outside the middleware,
    /// so whatever it returns must already be a finished response, and it must be quick and never block.
    /// It is asked only about requests without a body, and sees their method, target and Cookie header only.
    public var immediateResponder: (@Sendable (Request) -> Response?)?

    /// Renders 404, 405, thrown `HTTPError`s and the generic 500. The error's headers are added to whatever it
    /// returns. The default sends the message (or the reason phrase) as plain text. The server also calls it on
    /// its own threads for 413 (body too large) and 503 (shutting down), so it must be quick and never block.
    public var errorResponder: @Sendable (HTTPError, Request) -> Response = { error, _ in
        Response.text(error.message.isEmpty ? error.status.reasonPhrase : error.message, status: error.status)
    }

    /// An empty router.
    public init() {}

    /// Registers a route.
    /// - Parameters:
    ///   - method: The method; a `GET` route also answers `HEAD` unless a `HEAD` route matches.
    ///   - pattern: `/literal/:name/*rest`: `:name` matches one non-empty segment, a final `*name` matches the
    ///     non-empty rest of the path (slashes included). Literal segments win over parameters.
    ///   - bodyLimit: The largest request body accepted, in bytes; `nil` uses `defaultBodyLimit`.
    ///   - handler: Produces the response.
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, bodyLimit: Int? = nil, _ handler: @escaping Handler
    ) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), bodyLimit: bodyLimit, handler: handler))
    }

    /// Adds middleware around every routed handler; the first added is the outermost.
    public mutating func use(_ middleware: any Middleware) {
        middlewares.append(middleware)
    }

    /// The largest body the route for `method` and `path` accepts. The server asks before reading any body.
    public func bodyLimit(method: HTTPMethod, path: String) -> Int {
        guard case .matched(let route, _) = lookup(method: method, path: path) else { return defaultBodyLimit }
        return route.bodyLimit ?? defaultBodyLimit
    }

    /// Answers `request`: routes it, runs middleware and the handler, and renders errors. Never throws.
    /// Errors other than `HTTPError` become a generic 500; the real error goes to stderr.
    public func respond(to request: Request) async -> Response {
        var request = request
        do {
            switch lookup(method: request.method, path: request.path) {
            case .notFound:
                throw HTTPError(.notFound)
            case .methodNotAllowed(let allowed):
                let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
                throw HTTPError(.methodNotAllowed, headers: ["Allow": allow])
            case .matched(let route, let parameters):
                for (name, value) in parameters {
                    request.parameters[name] = value
                }
                let chain = middlewares.reversed().reduce(route.handler) { next, middleware in
                    { request in try await middleware.handle(request, next: next) }
                }
                return try await chain(request)
            }
        } catch let error as HTTPError {
            return errorResponse(error, for: request)
        } catch is CancellationError {
            // Only shutdown cancels handler tasks, and nobody reads that response.
            return errorResponse(HTTPError(.serviceUnavailable), for: request)
        } catch {
            ServerLog.error("\(request.method) \(request.path) failed: \(String(reflecting: error))")
            return errorResponse(HTTPError(.internalServerError), for: request)
        }
    }

    func errorResponse(_ error: HTTPError, for request: Request) -> Response {
        var response = errorResponder(error, request)
        for name in Set(error.headers.map { $0.name.lowercased() }) {
            response.headers.remove(name)
        }
        for (name, value) in error.headers {
            response.headers.add(name, value)
        }
        return response
    }

    enum Lookup {
        case matched(Route, [String: String])
        case methodNotAllowed(Set<HTTPMethod>)
        case notFound
    }

    func lookup(method: HTTPMethod, path: String) -> Lookup {
        let segments = RoutePattern.split(path)
        var best: [HTTPMethod: (route: Route, parameters: [String: String])] = [:]
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            if let current = best[route.method],
                !current.route.pattern.specificity.lexicographicallyPrecedes(route.pattern.specificity)
            {
                continue
            }
            best[route.method] = (route, parameters)
        }
        if let found = best[method] ?? (method == .head ? best[.get] : nil) {
            return .matched(found.route, found.parameters)
        }
        guard !best.isEmpty else { return .notFound }
        var allowed = Set(best.keys)
        if allowed.contains(.get) {
            allowed.insert(.head)
        }
        return .methodNotAllowed(allowed)
    }
}
