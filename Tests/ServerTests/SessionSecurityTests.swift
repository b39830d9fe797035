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
}
