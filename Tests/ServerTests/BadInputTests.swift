import Foundation
import HTTPServer
import Testing

@testable import App
@testable import Server

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(.serialized)
struct BadInputTests {
    @Test("unknown routes are 404 pages, wrong methods 405, malformed URIs 400, oversized bodies 413, anonymous uploads 401")
    func clearErrors() async throws {
        // Clips below the photos' 30 MB, so the create form's limit is the photos' and a 31 MB body is over it.
        let live = try await LiveApp { $0.maxVideoBytes = 20_000_000 }
        defer { Task { await live.stop() } }
        let unknown = try await live.get("/no/such/page")
        #expect(unknown.status == 404)
        #expect(unknown.headers["Content-Type"]?.hasPrefix("text/html") == true)
        let browser = Browser(base: live.base)
        #expect(try await browser.post("/", form: []).status == 405)
        let badURI = try await live.get("/xrpc/social.grain.unspecced.getStory?story=at%3A%2F%2Fnot%20a%20did%2Fx")
        #expect(badURI.status == 400)
        #expect(badURI.body.contains("\"error\""))
        let unknownXRPC = try await live.get("/xrpc/com.example.nothing")
        #expect(unknownXRPC.status == 404)
        #expect(unknownXRPC.body.contains("\"error\""))
        let badRkey = try await live.get("/profile/did:plc:aaaaaaaaaaaaaaaaaaaaaaaa/story/..")
        #expect(badRkey.status == 404)

        // Signed in, a body over the route's limit is 413; a stranger is refused (401) before any of it is read.
        try await browser.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        for (cookie, expected) in [(browser.cookie("gs_session"), 413), (nil, 401)] {
            var request = URLRequest(url: URL(string: live.base + "/create")!)
            request.httpMethod = "POST"
            request.setValue("multipart/form-data; boundary=x", forHTTPHeaderField: "Content-Type")
            if let cookie { request.setValue("gs_session=\(cookie)", forHTTPHeaderField: "Cookie") }
            request.httpBody = Data(count: 31_000_000)
            let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == expected)
        }
        #expect(try await live.get("/healthz").status == 200, "the server keeps serving")
    }
}

struct ErrorHeadersTests {
    @Test("an error's own headers, such as Retry-After on a busy 503, reach the response, as a page on pages and JSON on the APIs")
    func retryAfter() async throws {
        let live = try await LiveApp(demo: false)
        defer { Task { await live.stop() } }
        var router = Router()
        router.group("/api") { api in
            api.on(.get, "/api/busy") { _ in throw HTTPError(.serviceUnavailable, "Busy", headers: ["Retry-After": "5"]) }
        }
        router.on(.get, "/busy") { _ in throw HTTPError(.serviceUnavailable, "Busy", headers: ["Retry-After": "5"]) }
        live.app.front.register(on: &router)
        for (path, type) in [("/busy", "text/html"), ("/api/busy", "application/json")] {
            let response = await router.respond(to: Request(method: .get, path: path, headers: ["Host": "127.0.0.1:1"]))
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers["Retry-After"] == "5")
            #expect(response.headers["Content-Type"]?.hasPrefix(type) == true, "\(path)")
        }
    }
}
