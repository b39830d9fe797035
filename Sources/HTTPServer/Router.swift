/// Maps method and path to handlers, runs middleware, and turns errors into responses, by route group: the routes
/// registered on the router itself form the root group (`""`), and `group(_:_:)` adds groups under path prefixes,
/// each with its own middleware, error responder and immediate responder (see `RouteGroup`).
public struct Router: Sendable, RouteRegistry {
    /// Every group, longest prefix first, so the first that owns a path is its owner; the root group is last.
    private var groups: [RouteGroup] = [RouteGroup(prefix: "")]

    /// The body limit of routes registered without one: 64 KiB unless set.
    public var defaultBodyLimit: Int = 64 * 1024

    /// An empty router.
    public init() {}

    private var rootIndex: Int { groups.count - 1 }

    /// The root group's fast path (see `ImmediateResponder`).
    public var immediateResponder: ImmediateResponder? {
        get { groups[rootIndex].immediateResponder }
        set { groups[rootIndex].immediateResponder = newValue }
    }

    /// The root group's error responder (see `ErrorResponder`); other groups have their own.
    public var errorResponder: ErrorResponder {
        get { groups[rootIndex].errorResponder }
        set { groups[rootIndex].errorResponder = newValue }
    }

    /// Registers a route in the root group.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, options: RouteOptions, _ handler: @escaping Handler) {
        groups[rootIndex].on(method, pattern, options: options, handler)
        checkReachable()
    }

    /// Every registered route as its method and pattern (`GET /profile/:actor`), every group's: what a test walks
    /// to ask each route what it shows a stranger.
    public var table: [(method: HTTPMethod, pattern: String)] {
        groups.flatMap { group in group.routes.map { (method: $0.method, pattern: $0.pattern.description) } }
    }

    /// Adds middleware to the root group; the first added is the outermost.
    public mutating func use(_ middleware: any Middleware) {
        groups[rootIndex].use(middleware)
    }

    /// Creates the group for `prefix` (or edits it if it exists; `""` is the root group) and lets `configure` set
    /// its responders, middleware and routes.
    ///
    ///     router.group("/xrpc") { xrpc in
    ///         xrpc.errorResponder = { error, _ in .json(["error": error.message], status: error.status) }
    ///         backend.register(on: &xrpc)
    ///     }
    ///
    /// A route registered in a group whose prefix is not its own, or in a group that a longer prefix shadows, is a
    /// programming error and stops the program here, naming it.
    public mutating func group(_ prefix: String, _ configure: (inout RouteGroup) throws -> Void) rethrows {
        let index: Int
        if let existing = groups.firstIndex(where: { $0.prefix == prefix }) {
            index = existing
        } else {
            let group = RouteGroup(prefix: prefix)
            index = groups.firstIndex { $0.prefix.utf8.count < prefix.utf8.count } ?? groups.count
            groups.insert(group, at: index)
        }
        try configure(&groups[index])
        checkReachable()
    }

    /// Every group, longest prefix first.
    var allGroups: [RouteGroup] { groups }

    /// Stops on a route that a longer group prefix makes unreachable.
    private func checkReachable() {
        for (index, group) in groups.enumerated() {
            for route in group.routes {
                for longer in groups[..<index] where longer.prefix.utf8.count > group.prefix.utf8.count {
                    precondition(
                        !route.pattern.lies(under: longer.prefixSegments),
                        "route '\(route.pattern)' of group '\(group.prefix)' is shadowed by group '\(longer.prefix)': register it there")
                }
            }
        }
    }

    /// The prefix of the group that owns `path` (`""` for the root group), the label metrics count requests under.
    public func groupPrefix(for path: String) -> String {
        groups[groupIndex(for: path)].prefix
    }

    /// The index of the group that owns `path`.
    func groupIndex(for path: String) -> Int {
        for index in groups.indices where groups[index].owns(path) {
            return index
        }
        return rootIndex
    }

    /// Whether any group has an immediate responder (read once by the server, to skip the fast path entirely).
    var hasImmediateResponders: Bool {
        groups.contains { $0.immediateResponder != nil }
    }

    /// The owning group's immediate answer to a bodiless request, if it has one, with the group's prefix (for the
    /// observer, so the group is found once).
    func immediateResponse(to request: Request) -> (response: PreparedResponse, group: String)? {
        let group = groups[groupIndex(for: request.path)]
        return group.immediateResponder?(request).map { ($0, group.prefix) }
    }

    /// The limit, storage and admission check of the route for `method` and `path`; unknown routes get the
    /// default limit in memory and no check (their 404 or 405 comes once the body is in).
    func options(method: HTTPMethod, path: String) -> (limit: Int, storage: BodyStorage, admission: AdmissionCheck?) {
        guard case .matched(let route, _) = groups[groupIndex(for: path)].lookup(method: method, path: path) else {
            return (defaultBodyLimit, .memory, nil)
        }
        return (route.options.bodyLimit ?? defaultBodyLimit, route.options.bodyStorage, route.options.admission)
    }

    /// The largest body the route for `method` and `path` accepts. The server asks before reading any body.
    public func bodyLimit(method: HTTPMethod, path: String) -> Int {
        options(method: method, path: path).limit
    }

    /// Where the route for `method` and `path` keeps its body while it arrives.
    public func bodyStorage(method: HTTPMethod, path: String) -> BodyStorage {
        options(method: method, path: path).storage
    }

    /// Answers `request` through the group that owns its path: routes it, runs that group's middleware and the
    /// handler, and renders errors with that group's responder. Never throws. Errors other than `HTTPError` become
    /// a generic 500; the real error goes to stderr.
    public func respond(to request: Request) async -> Response {
        await groups[groupIndex(for: request.path)].respond(to: request)
    }

    /// `error` rendered by the group that owns the request's path.
    public func errorResponse(_ error: HTTPError, for request: Request) -> Response {
        groups[groupIndex(for: request.path)].errorResponse(error, for: request)
    }
}
