import Testing

@testable import HTTPServer

/// Route groups: the longest prefix owns a path, with its own routes, middleware and error rendering.
struct RouteGroupTests {
    private func text(_ response: Response) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    private struct Tag: Middleware {
        let name: String
        func handle(_ request: Request, next: Handler) async throws -> Response {
            var response = try await next(request)
            response.headers.add("X-Group", name)
            return response
        }
    }

    /// Pages at the root, a JSON-speaking /xrpc group and a nested /xrpc/admin group.
    private func router() -> Router {
        var router = Router()
        router.use(Tag(name: "pages"))
        router.errorResponder = { error, _ in .html("<h1>\(error.status.code)</h1>", status: error.status) }
        router.on(.get, "/") { _ in .text("home") }
        router.on(.get, "/:page") { request in .text("page \(request.parameters["page"] ?? "")") }
        router.group("/xrpc") { xrpc in
            xrpc.use(Tag(name: "xrpc"))
            xrpc.errorResponder = { error, _ in .json(Array("{\"error\":\"\(error.status.code)\"}".utf8), status: error.status) }
            xrpc.on(.get, "/xrpc/app.getThing") { _ in .text("thing") }
            xrpc.on(.post, "/xrpc/app.putThing") { _ in throw HTTPError(.conflict, "taken") }
        }
        router.group("/xrpc/admin") { admin in
            admin.on(.get, "/xrpc/admin/stats") { _ in .text("stats") }
        }
        return router
    }

    private func get(_ router: Router, _ path: String, method: HTTPMethod = .get) async -> Response {
        await router.respond(to: Request(method: method, path: path))
    }

    @Test("the longest matching prefix owns a path, at a segment boundary")
    func longestPrefixOwns() async {
        let router = router()

        #expect(text(await get(router, "/xrpc/app.getThing")) == "thing")
        #expect(text(await get(router, "/xrpc/admin/stats")) == "stats")
        #expect(text(await get(router, "/xrpcx")) == "page xrpcx", "/xrpcx is not under /xrpc")
        #expect(text(await get(router, "/")) == "home")
        #expect(router.groupIndex(for: "/xrpc") == router.groupIndex(for: "/xrpc/anything"))
        #expect(router.allGroups.map(\.prefix) == ["/xrpc/admin", "/xrpc", ""])
    }

    @Test("an unknown path or method under /xrpc gets the xrpc group's JSON error, not the HTML page")
    func groupErrors() async {
        let router = router()

        let missing = await get(router, "/xrpc/app.nothing")
        let wrongMethod = await get(router, "/xrpc/app.getThing", method: .delete)
        let thrown = await get(router, "/xrpc/app.putThing", method: .post)
        let page = await get(router, "/a/b/c")

        #expect(missing.status == .notFound)
        #expect(missing.headers["Content-Type"] == "application/json")
        #expect(text(missing) == #"{"error":"404"}"#)
        #expect(wrongMethod.status == .methodNotAllowed)
        #expect(wrongMethod.headers["Allow"] == "GET, HEAD")
        #expect(text(wrongMethod) == #"{"error":"405"}"#)
        #expect(thrown.status == .conflict)
        #expect(text(thrown) == #"{"error":"409"}"#)
        #expect(page.status == .notFound)
        #expect(text(page) == "<h1>404</h1>")
        // The nested group renders with its own (default, plain-text) responder.
        #expect(text(await get(router, "/xrpc/admin/none")) == "Not Found")
        #expect(
            router.errorResponse(HTTPError(.payloadTooLarge), for: Request(method: .post, path: "/xrpc/x")).headers["Content-Type"]
                == "application/json")
    }

    @Test("each group's middleware wraps only its own handlers")
    func groupMiddleware() async {
        let router = router()

        #expect(await get(router, "/xrpc/app.getThing").headers.values("X-Group") == ["xrpc"])
        #expect(await get(router, "/hello").headers.values("X-Group") == ["pages"])
        #expect(await get(router, "/xrpc/admin/stats").headers.values("X-Group") == [])
    }

    @Test("body options are looked up in the owning group")
    func groupOptions() {
        var router = Router()
        router.defaultBodyLimit = 100
        router.group("/api") { api in
            api.on(.post, "/api/upload", bodyLimit: 5000, bodyStorage: .temporaryFile(directory: "/tmp")) { _ in .text("") }
        }
        router.on(.post, "/upload", bodyLimit: 7) { _ in .text("") }

        #expect(router.bodyLimit(method: .post, path: "/api/upload") == 5000)
        #expect(router.options(method: .post, path: "/api/upload").storage == .temporaryFile(directory: "/tmp"))
        #expect(router.bodyLimit(method: .post, path: "/upload") == 7)
        #expect(router.options(method: .post, path: "/upload").storage == .memory)
        #expect(router.bodyLimit(method: .post, path: "/api/other") == 100)
    }

    @Test("group() edits an existing group, and \"\" is the root group")
    func editingGroups() async {
        var router = Router()
        router.group("/api") { $0.on(.get, "/api/a") { _ in .text("a") } }
        router.group("/api") { $0.on(.get, "/api/b") { _ in .text("b") } }
        router.group("") { $0.on(.get, "/c") { _ in .text("c") } }

        #expect(router.allGroups.map(\.prefix) == ["/api", ""])
        #expect(text(await get(router, "/api/a")) == "a")
        #expect(text(await get(router, "/api/b")) == "b")
        #expect(text(await get(router, "/c")) == "c")
    }

    @Test("a route outside its group's prefix, or shadowed by a longer group, stops the program")
    func misplacedRoutes() async {
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.group("/api") { $0.on(.get, "/elsewhere") { _ in .text("") } }
        }
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.group("/xrpc") { _ in }
            router.on(.get, "/xrpc/app.getThing") { _ in .text("") }
        }
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.on(.get, "/xrpc/app.getThing") { _ in .text("") }
            router.group("/xrpc") { _ in }
        }
    }
}
