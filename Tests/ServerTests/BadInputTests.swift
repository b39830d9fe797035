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
    @Test("unknown routes are 404 pages, wrong methods 405, malformed URIs 400, oversized bodies 413")
    func clearErrors() async throws {
        let live = try await LiveApp()
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

        var request = URLRequest(url: URL(string: live.base + "/create")!)
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=x", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(count: 31_000_000)
        let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 413)
        #expect(try await live.get("/healthz").status == 200, "the server keeps serving")
    }
}

struct ErrorHeadersTests {
    @Test("an error's own headers, such as Retry-After on a busy 503, reach the response")
    func retryAfter() async throws {
        let live = try await LiveApp(demo: false)
        defer { Task { await live.stop() } }
        let response = Application.errorResponse(
            HTTPError(.serviceUnavailable, "Busy", headers: ["Retry-After": "5"]), request: Request(method: .get, path: "/create"),
            pages: live.app.pages)
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers["Retry-After"] == "5")
        #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true)
    }
}
