import Foundation
import HTTPServer
import Testing

@testable import App

/// The first-run page as a person meets it: it asks for the setup code, says where to find it, and a wrong or
/// missing code comes back on that field with what they typed kept, never their passwords.
@Suite struct FirstRunFormTests {
    static let password = "a good password"

    static func post(_ front: FrontHarness, _ fields: [(String, String)]) async -> Response {
        await Visitor(front: front, session: "").post(SiteURL.welcome.path, fields)
    }

    @Test("the first-run page asks for the setup code, labelled, with where to find it")
    func asksForTheCode() async throws {
        let front = try FrontHarness(household: FakeHousehold())
        let page = await front.page(SiteURL.welcome.path)
        #expect(page.status == .ok)
        #expect(page.text.contains(#"<label for="setupCode">Setup code</label>"#))
        #expect(page.text.contains(#"name="setupCode""#) && page.text.contains(#"aria-describedby="setupCode-hint""#))
        let hint = try #require(page.capture(#"<p id="setupCode-hint"[^>]*>(.*?)</p>"#))
        #expect(hint.contains("printed it when it started") && hint.contains("<code>setup-code</code>") && hint.contains("data folder"))
        #expect(!page.text.contains(#"aria-invalid"#), "nothing is wrong yet")
    }

    @Test("a wrong or missing code re-shows the form with the error on the code's field, the name kept and no password")
    func wrongCode() async throws {
        let front = try FrontHarness(household: FakeHousehold())
        for code in ["wrong-code-here", ""] {
            let answer = await Self.post(
                front, [("setupCode", code), ("name", "ana"), ("displayName", "Ana <3"), ("password", Self.password), ("confirm", Self.password)])
            #expect(answer.status == .forbidden)
            #expect(answer.text.contains(#"id="setupCode" name="setupCode" type="text" value="\#(code)""#))
            #expect(answer.text.contains(#"aria-invalid="true" aria-describedby="setupCode-error setupCode-hint""#))
            let error = try #require(answer.capture(#"<p id="setupCode-error" class="field-error" role="alert">(.*?)</p>"#))
            #expect(error.contains("setup code is not right"))
            #expect(answer.text.contains(#"id="name" name="name" type="text" value="ana""#))
            #expect(answer.text.contains(#"value="Ana &lt;3""#))
            #expect(!answer.text.contains(Self.password), "a password came back in the page")
            #expect(answer.text.components(separatedBy: "aria-invalid").count == 2, "only the code's field is marked")
        }
        #expect(try FakeHousehold().needsOwner())
    }

    @Test("with the right code, a password problem is shown on its field and the code is kept; then the owner is made")
    func rightCode() async throws {
        let household = FakeHousehold()
        let front = try FrontHarness(household: household)
        let short = await Self.post(
            front, [("setupCode", FakeHousehold.setupCode.uppercased()), ("name", "ana"), ("password", "short"), ("confirm", "short")])
        #expect(short.status == .badRequest)
        #expect(
            short.text.contains(
                #"id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-invalid="true""#))
        #expect(short.capture(#"<p id="password-error" class="field-error" role="alert">(.*?)</p>"#) == "Use at least 8 characters.")
        #expect(short.text.contains(#"value="\#(FakeHousehold.setupCode.uppercased())""#), "the right code is kept")
        #expect(try household.needsOwner())

        let differ = await Self.post(
            front, [("setupCode", FakeHousehold.setupCode), ("name", "ana"), ("password", Self.password), ("confirm", "another one")])
        #expect(differ.capture(#"<p id="confirm-error" class="field-error" role="alert">(.*?)</p>"#) == "The two passwords differ.")

        let created = await Self.post(
            front, [("setupCode", FakeHousehold.setupCode), ("name", "ana"), ("password", Self.password), ("confirm", Self.password)])
        #expect(created.status == .seeOther)
        #expect(created.location == "/login?next=/&handle=owner.home.test", "the owner signs in and lands on the home page")
        #expect(try !household.needsOwner())
    }
}
