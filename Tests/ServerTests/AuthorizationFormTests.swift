import Foundation
import HTTPServer
import Server
import TestSupport
import Testing

/// The authorization server's sign-in page is a form the server renders too: posted as a browser posts it, with each
/// of its buttons, its handler reads no field the rendered page lacks (the front's forms are checked the same way in
/// `RenderedFormsTests`).
@Suite struct AuthorizationFormTests {
    /// Starts a member's sign-in at the front and returns the authorization server's form, as rendered.
    static func signInForm(_ live: LiveApp) async throws -> RenderedForm {
        let browser = Browser(base: live.base)
        let login = try await browser.get("/login?next=/")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: login.body).first)
        let started = try await browser.post("/login", form: [("csrf", csrf), ("handle", "maya.home.test"), ("next", "/")])
        let authorize = try #require(started.location, "starting sign-in answered \(started.status)")
        let page = try await browser.get(authorize)
        return try #require(RenderedForm.all(in: page.body, page: authorize).first { $0.method == "post" }, "\(page.body)")
    }

    @Test("the sign-in page's handler reads only fields the page has, whether the person signs in or cancels")
    func handlerReadsOnlyRenderedFields() async throws {
        let live = try await LiveApp()
        for button in ["Sign in", "Cancel"] {
            let form = try await Self.signInForm(live)
            let deny = form.controls.first { $0.type == "submit" && !$0.name.isEmpty }
            let fields = form.submission(["password": "maya-stories"], pressing: button == "Cancel" ? deny : nil)
            var headers = HTTPHeaders()
            headers.add("Host", String(live.base.dropFirst("http://".count)))
            headers.add("Origin", live.base)
            headers.add("Content-Type", "application/x-www-form-urlencoded")
            let request = Request(
                method: .post, path: form.action, headers: headers, body: Array(formEncoded(fields).utf8), remoteAddress: "127.0.0.1")
            let reads = FieldReads()
            let answer = await FieldReads.$current.withValue(reads) { await live.app.server.respond(to: request) }

            #expect(answer.status == .seeOther, "\(button) answered \(answer.status)")
            let unknown = reads.read(from: .body).subtracting(form.names)
            #expect(unknown.isEmpty, "\(button): the handler of \(form) reads \(unknown.sorted()), which the page does not have")
            #expect(
                reads.read(from: .body).isSuperset(of: button == "Cancel" ? ["csrf", "request_uri", "deny"] : ["csrf", "request_uri", "password"]))
        }
        await live.stop()
    }
}
