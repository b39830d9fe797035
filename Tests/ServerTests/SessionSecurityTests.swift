import App
import Foundation
import HTTPServer
import Imaging
import Server
import TestSupport
import Testing

@Suite(.serialized)
struct SessionSecurityTests {
    @Test("the session cookie is HttpOnly and SameSite=Lax, and gets __Host- and Secure behind a TLS proxy")
    func cookieAttributes() async throws {
        for secure in [false, true] {
            let live = try await LiveApp(behindTLSProxy: secure)
            // Behind the proxy the browser is on https: that is the origin its forms come from.
            let browser = Browser(base: live.base, behindTLSProxy: secure)
            _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
            let name = secure ? "__Host-gs_session" : "gs_session"
            let header = try #require(browser.lastSetCookies().first { $0.hasPrefix(name + "=") }, "secure: \(secure)")
            #expect(header.contains("HttpOnly"))
            #expect(header.contains("SameSite=Lax"))
            #expect(header.contains("Path=/"))
            #expect(header.contains("; Secure") == secure)
            await live.stop()
        }
    }

    @Test(
        "starting a sign-in sets a binding cookie: __Host- and Secure behind a TLS proxy, HttpOnly, SameSite=Lax, Path=/, ten minutes; the callback clears it"
    )
    func signInBindingCookie() async throws {
        for secure in [false, true] {
            let live = try await LiveApp(behindTLSProxy: secure)
            let browser = Browser(base: live.base, behindTLSProxy: secure)
            let form = try await browser.get("/login")
            let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first)
            let started = try await browser.post("/login", form: [("csrf", csrf), ("handle", "maya.home.test"), ("next", "/")])
            let set = browser.lastSetCookies()
            let landed = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
            let atCallback = browser.lastSetCookies()
            await live.stop()

            let name = secure ? "__Host-gs_signin" : "gs_signin"
            #expect(started.status == 303)
            let header = try #require(set.first { $0.hasPrefix(name + "=") }, "secure: \(secure); cookies set: \(set)")
            let attributes = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(attributes[0].dropFirst(name.count + 1).count >= 32, "an unguessable value")
            #expect(attributes.contains("HttpOnly"))
            #expect(attributes.contains("SameSite=Lax"), "sent on the authorization server's redirect back, a top-level GET")
            #expect(attributes.contains("Path=/"))
            #expect(attributes.contains("Max-Age=600"), "as long as a sign-in may take: \(header)")
            #expect(attributes.contains("Secure") == secure)
            #expect(!attributes.contains { $0.lowercased().hasPrefix("domain=") }, "host-only")
            #expect(landed.status == 303)
            #expect(atCallback.contains { $0.hasPrefix(name + "=;") && $0.contains("Max-Age=0") }, "the callback clears it: \(atCallback)")
        }
    }

    @Test("the database holds only the session id's hash, and no token or key in the clear")
    func nothingInTheClear() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        let sessionID = try #require(browser.cookie("gs_session"))
        var files = Data()
        for name in ["front.sqlite", "front.sqlite-wal"] {
            files.append(FileManager.default.contents(atPath: live.dataDirectory + "/" + name) ?? Data())
        }
        let text = String(decoding: files, as: UTF8.self)
        #expect(!files.isEmpty)
        #expect(!text.contains(sessionID), "the raw session id is never stored")
        #expect(!text.contains("eyJ"), "no JWT (access token) is stored in the clear")
        #expect(!text.contains("\"accessToken\""), "the token set is sealed")
    }

    @Test("a session cookie planted before sign-in is replaced, not promoted")
    func sessionRotatedAtSignIn() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        browser.plant("gs_session", "planted-by-an-attacker-planted-by-an-attacker")
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        let issued = try #require(browser.cookie("gs_session"))
        #expect(issued != "planted-by-an-attacker-planted-by-an-attacker")
        let attacker = Browser(base: live.base)
        attacker.plant("gs_session", "planted-by-an-attacker-planted-by-an-attacker")
        #expect(try await attacker.get("/create").status == 302, "the planted id is not signed in")
    }
}

@Suite(.serialized)
struct PublicURLTests {
    @Test("with a public URL other than the loopback address, sign-in and posting still work end to end")
    func publicURLIsTheIssuer() async throws {
        // Find a free port, then serve on it under the name localhost, as a proxy's public name would be.
        var probe = LiveApp?.none
        probe = try await LiveApp(demo: false)
        let port = probe!.app.server.port
        await probe!.stop()
        let live = try await LiveApp(port: port, publicURL: "http://localhost:\(port)")
        defer { Task { await live.stop() } }
        #expect(live.base == "http://localhost:\(port)")
        let browser = Browser(base: live.base)
        let landed = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        #expect(landed.status == 303)
        let form = try await browser.get("/create")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first)
        let jpeg = try Imaging.encodeJPEG(RGBImage(width: 30, height: 40, red: 1, green: 2, blue: 3), quality: 80)
        let posted = try await browser.postMultipart("/create", fields: [("csrf", csrf)], file: ("photo", "p.jpg", "image/jpeg", jpeg))
        #expect(posted.status == 303, "writes reach the backend with proofs naming the issuer's URLs")
    }

    /// `next` and `from` values a browser would turn into another site: it strips TAB, CR and LF from URLs and
    /// reads a backslash as a slash, so each of these becomes `//evil.example`.
    static let leavingValues = ["/%09/evil.example", "/%0d/evil.example", "/%0a/evil.example", "/%20/evil.example", "/%5Cevil.example"]

    @Test("a next that would leave the site through TAB, CR, LF, a space or a backslash is dropped: sign-in redirects stay here")
    func signInNextStaysLocal() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        for value in Self.leavingValues {
            // the login form carries a safe next, and a sign-in started with the raw value lands here
            let browser = Browser(base: live.base)
            let form = try await browser.get("/login?next=\(value)")
            let carried = captures(#"name="next" value="([^"]*)""#, in: form.body).map(unescape)
            let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first)
            let raw = try #require(value.removingPercentEncoding)
            let started = try await browser.post("/login", form: [("csrf", csrf), ("handle", "maya.home.test"), ("next", raw)])
            let signInPage = try await browser.get(try #require(started.location, "\(value): starting answered \(started.status)"))
            let approved = try await browser.post(
                "/oauth/authorize",
                form: [
                    ("request_uri", unescape(try #require(captures(#"name="request_uri" value="([^"]+)""#, in: signInPage.body).first))),
                    ("csrf", unescape(try #require(captures(#"name="csrf" value="([^"]+)""#, in: signInPage.body).first))),
                    ("username", "maya"), ("password", "maya-stories"),
                ])
            let landed = try await browser.get(try #require(approved.location, "\(value): the sign-in form answered \(approved.status)"))
            // once signed in, /login sends the browser straight on
            let again = try await browser.get("/login?next=\(value)")

            #expect(form.status == 200)
            #expect(carried == ["/"], "\(value): the form carries \(carried)")
            #expect(landed.status == 303)
            #expect(landed.location == "/", "\(value): the sign-in sent the browser to \(landed.location ?? "nowhere")")
            #expect(again.status == 303 || again.status == 302)
            #expect(again.location == "/", "\(value): /login sent a signed-in browser to \(again.location ?? "nowhere")")
        }
    }

    @Test("a story opened with a from that would leave the site keeps its Close link, its last Next and its redirects here")
    func storyFromStaysLocal() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let authors = captures(#"data-story-author="([^"]+)""#, in: try await live.get("/").body)
        let author = try #require(authors.last, "the last author's last story's Next is the Close link")
        for value in Self.leavingValues {
            let entry = try await live.get("/stories/\(author)?at=last&from=\(value)")
            let location = try #require(entry.headers["Location"], "\(value): /stories answered \(entry.status)")
            let story = try await live.get(location)
            let path = String(location.prefix { $0 != "?" })
            let permalink = try await live.get("\(path)?from=\(value)")

            #expect(!location.contains("evil"), "\(value): /stories redirected to \(location)")
            for page in [story, permalink] {
                #expect(page.status == 200)
                #expect(captures(#"href="([^"]+)" data-close"#, in: page.body).map(unescape) == ["/"], "\(value)")
                #expect(captures(#"href="([^"]+)" rel="next""#, in: page.body).map(unescape) == ["/"], "\(value): the last Next closes")
                #expect(!page.body.contains("evil.example"), "\(value): a link on the page leaves the site")
            }
        }
    }
}
