import HTTPServer
import Testing

@testable import App

@Suite struct CSRFTests {
    static let form = [("Content-Type", "application/x-www-form-urlencoded")]

    @Test("a POST without the CSRF cookie's token is refused with a page saying to reload")
    func missingTokenIsRefused() async throws {
        let front = try FrontHarness()
        let response = await front.send(
            .post, "/logout", headers: Self.form + [("Cookie", "gs_csrf=" + String(repeating: "a", count: 43))], body: Array("csrf=wrong".utf8))
        #expect(response.status == .forbidden)
        #expect(response.text.contains("This form has expired"))
    }

    @Test("Origin: null is refused like a foreign origin, even with the right token")
    func nullOriginIsRefused() async throws {
        let front = try FrontHarness()
        let token = String(repeating: "a", count: 43)
        let headers = Self.form + [("Cookie", "gs_csrf=\(token)")]
        let null = await front.send(.post, "/logout", headers: headers + [("Origin", "null")], body: Array("csrf=\(token)".utf8))
        #expect(null.status == .forbidden)
        let foreign = await front.send(.post, "/logout", headers: headers + [("Origin", "http://evil.example")], body: Array("csrf=\(token)".utf8))
        #expect(foreign.status == .forbidden)
        let ours = await front.send(.post, "/logout", headers: headers + [("Origin", "http://box.local:8080")], body: Array("csrf=\(token)".utf8))
        #expect(ours.status == .seeOther)
        // Issue 26: the home page says it was done, in fixed words; an address cannot make it say anything else.
        #expect(ours.location == "/?done=signed-out")
        #expect((await front.page("/?done=signed-out")).text.contains(#"data-done>You are signed out on this device.<"#))
        #expect(!(await front.page("/?done=%3Cb%3Ehi")).text.contains("data-done"))
    }

    @Test("the origin check compares with the origin the request was sent to, on each of our names")
    func originCheckFollowsTheHost() async throws {
        let front = try FrontHarness()
        let token = String(repeating: "b", count: 43)
        let headers = Self.form + [("Cookie", "gs_csrf=\(token)"), ("Origin", "http://localhost:8080")]
        let onLocalhost = await front.send(.post, "/logout", headers: headers, body: Array("csrf=\(token)".utf8), host: "localhost:8080")
        #expect(onLocalhost.status == .seeOther)
        let crossed = await front.send(.post, "/logout", headers: headers, body: Array("csrf=\(token)".utf8), host: "box.local:8080")
        #expect(crossed.status == .forbidden)
    }
}
