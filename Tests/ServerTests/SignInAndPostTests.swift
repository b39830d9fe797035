import ATProto
import Foundation
import Imaging
import TestSupport
import Testing

@testable import App
@testable import Server

@Suite(.serialized)
struct SignInAndPostTests {
    /// Starts signing in at the front and returns the authorization server's sign-in form fields.
    func openSignInPage(_ browser: Browser, handle: String, next: String = "/create") async throws -> (requestURI: String, csrf: String) {
        let login = try await browser.get("/login?next=\(next)")
        #expect(login.status == 200)
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: login.body).first)
        let started = try await browser.post("/login", form: [("csrf", csrf), ("handle", handle), ("next", next)])
        #expect(started.status == 303)
        let authorize = try #require(started.location)
        #expect(authorize.contains("/oauth/authorize?request_uri="))
        let signInPage = try await browser.get(authorize)
        #expect(signInPage.status == 200)
        return (
            unescape(try #require(captures(#"name="request_uri" value="([^"]+)""#, in: signInPage.body).first)),
            unescape(try #require(captures(#"name="csrf" value="([^"]+)""#, in: signInPage.body).first))
        )
    }

    /// Signs in through the front's OAuth client against the embedded authorization server.
    func signIn(_ browser: Browser, handle: String, password: String, next: String = "/create") async throws -> Browser.Page {
        let (requestURI, asCSRF) = try await openSignInPage(browser, handle: handle, next: next)
        let username = String(handle.prefix { $0 != "." })
        let approved = try await browser.post(
            "/oauth/authorize", form: [("request_uri", requestURI), ("csrf", asCSRF), ("username", username), ("password", password)])
        #expect(approved.status == 303)
        let callback = try #require(approved.location)
        #expect(callback.contains("/auth/callback?") && callback.contains("code=") && callback.contains("iss="))
        return try await browser.get(callback)
    }

    @Test(
        "a household member signs in, posts a JPEG story that opens in the viewer, deletes it, and signs out",
        arguments: [false, true])
    func signInPostDeleteSignOut(serverNonces: Bool) async throws {
        // Run once against hatk's behaviour (no DPoP nonces) and once with atproto-profile nonces.
        let live = try await LiveApp(dpopNonces: serverNonces)
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        let landed = try await signIn(browser, handle: "maya.home.test", password: "maya-stories")
        #expect(landed.status == 303)
        #expect(landed.location == "/create")
        #expect(browser.cookie("gs_session") != nil)

        let form = try await browser.get("/create")
        #expect(form.status == 200)
        #expect(form.body.contains(#"name="photo""#))
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first)
        var pixels = [UInt8](repeating: 0, count: 300 * 400 * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) { pixels[i] = UInt8(i % 251); pixels[i + 1] = 90; pixels[i + 2] = 200 }
        let jpeg = try Imaging.encodeJPEG(RGBImage(width: 300, height: 400, pixels: pixels), quality: 80)
        let posted = try await browser.postMultipart("/create", fields: [("csrf", csrf)], file: ("photo", "me.jpg", "image/jpeg", jpeg))
        #expect(posted.status == 303)
        let storyPath = try #require(posted.location)
        #expect(storyPath.hasPrefix("/profile/did:plc:") && storyPath.contains("/story/"))

        let story = try await browser.get(storyPath)
        #expect(story.status == 200)
        #expect(story.body.contains(#"width="300" height="400""#))
        let deleteHref = try #require(captures(#"href="([^"]+)" data-delete"#, in: story.body).first)
        let home = try await browser.get("/")
        let own = captures(#"data-view-your-story="([^"]+)""#, in: home.body).first
        #expect(storyPath.contains(own ?? "none"), "the Your story tile now offers to view the new story")

        let confirm = try await browser.get(deleteHref)
        #expect(confirm.status == 200)
        let deleteCSRF = try #require(captures(#"name="csrf" value="([^"]+)""#, in: confirm.body).first)
        let deleted = try await browser.post(deleteHref, form: [("csrf", deleteCSRF)])
        #expect(deleted.status == 303)
        #expect(try await browser.get(storyPath).status == 404)

        let out = try await browser.post("/logout", form: [("csrf", deleteCSRF)])
        #expect(out.status == 303)
        #expect(browser.cookie("gs_session") == nil)
        let after = try await browser.get("/create")
        #expect(after.status == 302)
        #expect(after.location?.hasPrefix("/login") == true)
    }

    @Test("a wrong password keeps the person on the sign-in page with one message for any mistake")
    func wrongPassword() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        let (requestURI, asCSRF) = try await openSignInPage(browser, handle: "maya.home.test")
        let wrong = try await browser.post(
            "/oauth/authorize", form: [("request_uri", requestURI), ("csrf", asCSRF), ("username", "maya"), ("password", "nope")])
        #expect(wrong.status == 401)
        #expect(wrong.body.contains("Wrong username or password"))
        #expect(browser.cookie("gs_session") == nil)
    }

    @Test("a callback with a wrong state or a wrong iss is refused and signs no one in")
    func callbackChecks() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        for tamper in ["state", "iss"] {
            let browser = Browser(base: live.base)
            let (requestURI, asCSRF) = try await openSignInPage(browser, handle: "maya.home.test")
            let approved = try await browser.post(
                "/oauth/authorize", form: [("request_uri", requestURI), ("csrf", asCSRF), ("username", "maya"), ("password", "maya-stories")])
            var callback = try #require(approved.location)
            if tamper == "state" {
                callback = callback.replacingOccurrences(of: "state=", with: "state=x")
            } else {
                callback = callback.replacingOccurrences(of: "iss=", with: "iss=https%3A%2F%2Fevil.example&was=")
            }
            let result = try await browser.get(callback)
            #expect(result.status == 400, "\(tamper)")
            #expect(browser.cookie("gs_session") == nil, "\(tamper)")
        }
    }

    @Test("one member cannot delete another's story")
    func cannotDeleteOthers() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await signIn(browser, handle: "jonas.home.test", password: "jonas-stories")
        let mayaStory = try #require(try await live.get("/stories/maya.home.test").headers["Location"])
        let story = try await browser.get(mayaStory)
        let path = mayaStory.components(separatedBy: "?")[0] + "/delete"
        #expect(!story.body.contains(path), "no delete link on someone else's story")
        #expect(story.body.contains(#"data-delete aria-label="Delete this story" hidden"#))
        #expect(try await browser.get(path).status == 403)
        let csrf = try #require(browser.cookie("gs_csrf"))
        #expect(try await browser.post(path, form: [("csrf", csrf)]).status == 403)
        #expect(try await live.get(mayaStory).status == 200, "the story is still there")
    }

    @Test("forms without the CSRF token, or sent from another origin, are refused")
    func csrfRefused() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await browser.get("/login")
        let noToken = try await browser.post("/login", form: [("handle", "maya.home.test")])
        #expect(noToken.status == 403)
        let wrongToken = try await browser.post("/login", form: [("csrf", "forged-token-forged-token-forged-token"), ("handle", "maya.home.test")])
        #expect(wrongToken.status == 403)
    }

    @Test("posting needs a session: the create page sends visitors to sign in")
    func createNeedsSignIn() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let page = try await live.get("/create")
        #expect(page.status == 302)
        #expect(page.headers["Location"] == "/login?next=/create")
    }

    @Test("the client metadata names our callback and asks for DPoP-bound tokens")
    func clientMetadata() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let (status, body, _) = try await live.get("/oauth-client-metadata.json")
        #expect(status == 200)
        let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        #expect(json?["client_id"] as? String == live.base + "/oauth-client-metadata.json")
        #expect(json?["redirect_uris"] as? [String] == [live.base + "/auth/callback"])
        #expect(json?["dpop_bound_access_tokens"] as? Bool == true)
        #expect((json?["scope"] as? String)?.hasPrefix("atproto ") == true)
    }
}

@Suite(.serialized)
struct SessionRefreshTests {
    func postStory(_ browser: Browser) async throws -> Browser.Page {
        let form = try await browser.get("/create")
        guard let csrf = captures(#"name="csrf" value="([^"]+)""#, in: form.body).first else { return form }
        let jpeg = try Imaging.encodeJPEG(RGBImage(width: 40, height: 30, red: 200, green: 80, blue: 20), quality: 80)
        return try await browser.postMultipart("/create", fields: [("csrf", csrf)], file: ("photo", "p.jpg", "image/jpeg", jpeg))
    }

    @Test("after the access token expires, 20 concurrent posts cause exactly one refresh and all succeed")
    func concurrentRefreshHappensOnce() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "jonas.home.test", password: "jonas-stories")
        live.clock.advance(hours: 2)
        let before = live.app.front.refreshCount
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await self.postStory(browser).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: 303, count: 20), "a second refresh with the rotated token would have ended the session")
        #expect(live.app.front.refreshCount - before == 1)
        #expect(try await postStory(browser).status == 303)
    }

    @Test("when the refresh token has expired the session ends and the person is asked to sign in again")
    func deadGrantEndsSession() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "jonas.home.test", password: "jonas-stories")
        live.clock.advance(hours: 24 * 13.9)
        // The session itself outlives this; the refresh token (14 days at the server) does not after the next jump.
        #expect(try await postStory(browser).status == 303)
        live.clock.advance(hours: 24 * 14.5)
        let page = try await postStory(browser)
        #expect(page.status == 302)
        #expect(page.location?.hasPrefix("/login") == true)
    }
}
