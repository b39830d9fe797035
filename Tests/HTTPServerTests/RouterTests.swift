import Testing

@testable import HTTPServer

struct RouterTests {
    private func text(_ response: Response) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func get(_ router: Router, _ path: String, method: HTTPMethod = .get) async -> Response {
        await router.respond(to: Request(method: method, path: path))
    }

    @Test("a literal segment wins over a parameter, whatever the registration order")
    func literalBeatsParameter() async {
        // setup
        var router = Router()
        router.on(.get, "/profile/:actor") { request in .text("param \(request.parameters["actor"] ?? "")") }
        router.on(.get, "/profile/settings") { _ in .text("literal") }
        router.on(.get, "/a/:x") { _ in .text("a-first") }
        router.on(.get, "/:y/b") { _ in .text("b-second") }

        // MUT + validate
        #expect(text(await get(router, "/profile/settings")) == "literal")
        #expect(text(await get(router, "/profile/alice.test")) == "param alice.test")
        #expect(text(await get(router, "/a/b")) == "a-first")
    }

    @Test("a final *name captures the rest of the path including slashes, but not an empty rest")
    func restCapturesRemainder() async {
        var router = Router()
        router.on(.get, "/static/*path") { request in .text(request.parameters["path"] ?? "-") }
        router.on(.get, "/profile/:actor/story/:rkey") { request in
            .text("\(request.parameters["actor"]!)|\(request.parameters["rkey"]!)")
        }

        #expect(text(await get(router, "/static/js/app/progress.js")) == "js/app/progress.js")
        #expect(await get(router, "/static/").status == .notFound)
        #expect(await get(router, "/static").status == .notFound)
        #expect(text(await get(router, "/profile/did:plc:abc/story/3k2a")) == "did:plc:abc|3k2a")
        #expect(await get(router, "/profile//story/3k2a").status == .notFound)
        #expect(await get(router, "/profile/a/story/b/extra").status == .notFound)
    }

    @Test("an unknown path is a 404 rendered by the error responder")
    func unknownPathIs404() async {
        var router = Router()
        router.on(.get, "/") { _ in .text("home") }
        router.errorResponder = { error, request in
            .html("<p>\(error.status.code) at \(request.path)</p>", status: error.status)
        }

        let response = await get(router, "/nope")

        #expect(response.status == .notFound)
        #expect(text(response) == "<p>404 at /nope</p>")
        #expect(text(await get(router, "/")) == "home")
    }

    @Test("a known path with another method is a 405 listing the allowed methods")
    func wrongMethodIs405WithAllow() async {
        var router = Router()
        router.on(.get, "/story/:id") { _ in .text("get") }
        router.on(.delete, "/story/:id") { _ in .text("delete") }

        let response = await get(router, "/story/1", method: .post)

        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "DELETE, GET, HEAD")
    }

    @Test("HEAD is answered by the GET route unless a HEAD route exists")
    func headFallsBackToGet() async {
        var router = Router()
        router.on(.get, "/page") { request in .text("get via \(request.method)") }
        router.on(.get, "/other") { _ in .text("get") }
        router.on(.head, "/other") { _ in .text("head route") }

        #expect(text(await get(router, "/page", method: .head)) == "get via HEAD")
        #expect(text(await get(router, "/other", method: .head)) == "head route")
    }

    @Test("middleware runs in the order added, the first one outermost")
    func middlewareOrder() async {
        struct Tag: Middleware {
            let name: String
            let recorder: Recorder
            func handle(_ request: Request, next: Handler) async throws -> Response {
                recorder.record("\(name) in")
                var response = try await next(request)
                recorder.record("\(name) out")
                response.headers.add("X-Trace", name)
                return response
            }
        }
        let recorder = Recorder()
        var router = Router()
        router.use(Tag(name: "outer", recorder: recorder))
        router.on(.get, "/") { _ in
            recorder.record("handler")
            return .text("ok")
        }
        router.use(Tag(name: "inner", recorder: recorder))

        let response = await get(router, "/")

        #expect(recorder.all == ["outer in", "inner in", "handler", "inner out", "outer out"])
        #expect(response.headers.values("X-Trace") == ["inner", "outer"])
    }

    @Test("typed parameters parse, and a missing or unparsable one is a 400")
    func typedParameterRequire() async throws {
        var router = Router()
        router.on(.get, "/page/:n") { request in
            let n = try request.parameters.require("n", as: Int.self)
            return .text("page \(n + 1)")
        }
        router.on(.get, "/missing") { request in .text(try request.parameters.require("nope")) }

        #expect(text(await get(router, "/page/41")) == "page 42")
        let bad = await get(router, "/page/abc")
        #expect(bad.status == .badRequest)
        #expect(text(bad) == "Invalid parameter n")
        #expect(await get(router, "/missing").status == .badRequest)
        #expect(throws: HTTPError.self) { try Parameters().require("x", as: Int.self) }
    }

    @Test("a thrown HTTPError keeps its status and headers; any other error is a generic 500")
    func errorsBecomeResponses() async {
        struct Secret: Error {}
        var router = Router()
        router.on(.get, "/limited") { _ in throw HTTPError(.tooManyRequests, "slow down", headers: ["Retry-After": "5"])
        }
        router.on(.get, "/boom") { _ in throw Secret() }

        let limited = await get(router, "/limited")
        let boom = await get(router, "/boom")

        #expect(limited.status == .tooManyRequests)
        #expect(limited.headers["Retry-After"] == "5")
        #expect(text(limited) == "slow down")
        #expect(boom.status == .internalServerError)
        #expect(text(boom) == "Internal Server Error")
    }

    @Test("body limits come from the matched route, else the default")
    func bodyLimits() {
        var router = Router()
        router.defaultBodyLimit = 1000
        router.on(.post, "/upload", bodyLimit: 5_000_000) { _ in .text("") }
        router.on(.post, "/small") { _ in .text("") }

        #expect(router.bodyLimit(method: .post, path: "/upload") == 5_000_000)
        #expect(router.bodyLimit(method: .post, path: "/small") == 1000)
        #expect(router.bodyLimit(method: .post, path: "/unknown") == 1000)
        #expect(Router().defaultBodyLimit == 64 * 1024)
    }
}
