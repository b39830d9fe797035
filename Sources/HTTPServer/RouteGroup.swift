/// The routes under one path prefix (`/xrpc`, `/api`, `/oauth`, or `""` for everything else), with their own
/// middleware, error rendering and server-thread fast path. The longest prefix that matches a path at a segment
/// boundary owns it (`/xrpc` owns `/xrpc` and `/xrpc/a`, not `/xrpcx`): its routes alone are matched, and its
/// responders render every error under it, so an unknown `/xrpc/...` path gets the xrpc group's JSON error.
public struct RouteGroup: Sendable, RouteRegistry {
    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let options: RouteOptions
        let handler: Handler
    }

    /// The prefix, `""` or `/segment[/segment...]` without a trailing slash.
    public let prefix: String
    let prefixSegments: [Substring]
    private(set) var routes: [Route] = []
    private var middlewares: [any Middleware] = []

    /// Renders this group's errors. The default sends the message (or the reason phrase) as plain text.
    public var errorResponder: ErrorResponder = { error, _ in
        Response.text(error.message.isEmpty ? error.status.reasonPhrase : error.message, status: error.status)
    }

    /// The server-thread fast path for this group's bodiless requests; nil for none.
    public var immediateResponder: ImmediateResponder?

    init(prefix: String) {
        precondition(
            prefix.isEmpty || (prefix.hasPrefix("/") && !prefix.hasSuffix("/") && !prefix.contains("//")),
            "a route group prefix is \"\" or \"/a[/b...]\" without a trailing slash, not '\(prefix)'")
        self.prefix = prefix
        prefixSegments = prefix.isEmpty ? [] : RoutePattern.split(prefix)
    }

    /// Registers a route whose pattern lies under this group's prefix (checked: a route elsewhere could never be
    /// reached).
    public mutating func on(_ method: HTTPMethod, _ pattern: String, options: RouteOptions, _ handler: @escaping Handler) {
        let parsed = RoutePattern(pattern)
        precondition(
            parsed.lies(under: prefixSegments), "route '\(pattern)' does not lie under its group's prefix '\(prefix)'")
        routes.append(Route(method: method, pattern: parsed, options: options, handler: handler))
    }

    /// Adds middleware around every handler of this group; the first added is the outermost.
    public mutating func use(_ middleware: any Middleware) {
        middlewares.append(middleware)
    }

    /// Whether this group's prefix matches `path` at a segment boundary.
    func owns(_ path: String) -> Bool {
        guard !prefix.isEmpty else { return true }
        let path = path.utf8
        let prefix = prefix.utf8
        guard path.starts(with: prefix) else { return false }
        let end = path.index(path.startIndex, offsetBy: prefix.count)
        return end == path.endIndex || path[end] == UInt8(ascii: "/")
    }

    func respond(to request: Request) async -> Response {
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
