import App
import Foundation
import Server
import TestSupport
import Testing

@Suite(.serialized)
struct HouseholdTests {
    func csrf(_ page: Browser.Page) throws -> String {
        try #require(captures(#"name="csrf" value="([^"]+)""#, in: page.body).first)
    }

    @Test("a fresh household starts at the first-run page, where only the holder of the setup code becomes the owner, once")
    func firstRunCreatesOwner() async throws {
        let live = try await LiveApp(demo: false)
        defer { Task { await live.stop() } }
        let code = try #require(try live.app.setupCodeIfNeeded())
        let file = try String(contentsOfFile: live.dataDirectory + "/setup-code", encoding: .utf8)
        #expect(file.trimmingCharacters(in: .whitespacesAndNewlines) == code)
        let mode = try FileManager.default.attributesOfItem(atPath: live.dataDirectory + "/setup-code")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let browser = Browser(base: live.base)
        let home = try await browser.get("/")
        #expect(home.status == 302)
        #expect(home.location == "/welcome")
        let welcome = try await browser.get("/welcome")
        let token = try csrf(welcome)
        // The first stranger on the network, without the code, is refused and nothing is created.
        let stranger = try await browser.post(
            "/welcome",
            form: [("csrf", token), ("name", "eve"), ("password", "a good password"), ("confirm", "a good password"), ("setupCode", "guess")])
        #expect(stranger.status == 403)
        #expect(try await browser.get("/").location == "/welcome")
        let short = try await browser.post(
            "/welcome", form: [("csrf", token), ("name", "ana"), ("password", "short"), ("confirm", "short"), ("setupCode", code)])
        #expect(short.status == 400)
        #expect(short.body.contains("at least 8 characters"))
        let created = try await browser.post(
            "/welcome",
            form: [
                ("csrf", token), ("name", "ana"), ("displayName", "Ana"), ("password", "a good password"), ("confirm", "a good password"),
                ("setupCode", code.uppercased()),
            ])
        #expect(created.status == 303)
        #expect(created.location == "/login?next=/&handle=ana.home.test")
        #expect(!FileManager.default.fileExists(atPath: live.dataDirectory + "/setup-code"))
        let again = try await browser.post(
            "/welcome",
            form: [("csrf", token), ("name", "eve"), ("password", "another password"), ("confirm", "another password"), ("setupCode", code)])
        #expect(again.status == 409)
        #expect(try await browser.get("/welcome").location == "/")
        let profile = try await live.get("/profile/ana.home.test")
        #expect(profile.status == 200)
        #expect(profile.body.contains("Ana"))
    }

    @Test("the owner invites a member by link; the link works once; members cannot invite")
    func invitations() async throws {
        let live = try await LiveApp(demo: false)
        defer { Task { await live.stop() } }
        _ = try await live.app.addAccount(name: "ana", displayName: "Ana", password: "owner password")
        _ = try await live.app.addAccount(name: "ben", displayName: "Ben", password: "member password")
        let owner = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(owner, handle: "ana.home.test", password: "owner password", next: "/invite")
        let invitePage = try await owner.get("/invite")
        #expect(invitePage.status == 200)
        let made = try await owner.post("/invite", form: [("csrf", try csrf(invitePage))])
        let link = try #require(captures(#"readonly value="([^"]+)""#, in: made.body).first)
        #expect(link.hasPrefix(live.base + "/join/"))
        let path = String(link.dropFirst(live.base.count))

        let guest = Browser(base: live.base)
        let joinPage = try await guest.get(path)
        #expect(joinPage.status == 200)
        let joined = try await guest.post(
            path,
            form: [
                ("csrf", try csrf(joinPage)), ("name", "cleo"), ("displayName", "Cleo"), ("password", "cleo password"), ("confirm", "cleo password"),
            ])
        #expect(joined.status == 303)
        #expect(try await live.get("/profile/cleo.home.test").status == 200)
        #expect(try await guest.get(path).status == 404, "an invitation works once")

        let member = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(member, handle: "ben.home.test", password: "member password", next: "/")
        #expect(try await member.get("/invite").status == 403)
    }

    @Test("users add makes the first account the owner and later ones members, refusing bad names")
    func usersAdd() async throws {
        let live = try await LiveApp(demo: false)
        defer { Task { await live.stop() } }
        let first = try await live.app.addAccount(name: "ana", displayName: nil, password: nil)
        #expect(first.handle == "ana.home.test")
        #expect(first.password.count >= 12, "a generated password is returned to be shown once")
        await #expect(throws: (any Error).self) { try await live.app.addAccount(name: "Bad Name!", displayName: nil, password: "whatever pass") }
        await #expect(throws: (any Error).self) { try await live.app.addAccount(name: "ana", displayName: nil, password: "whatever pass") }
        let browser = Browser(base: live.base)
        let landed = try await SignInAndPostTests().signIn(browser, handle: "ana.home.test", password: first.password, next: "/invite")
        #expect(landed.location == "/invite")
        #expect(try await browser.get("/invite").status == 200, "the first account owns the household")
    }
}
