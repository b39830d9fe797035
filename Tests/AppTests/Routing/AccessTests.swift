import ATProto
import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

@testable import App

/// Who may reach each route, in process: a household front (`audience: .household`) against a public one.
@Suite struct AccessTests {
    static let maya = DID.parse("did:plc:maya")!

    static func front(_ audience: Audience, canCrossPost: Bool = false) throws -> FrontHarness {
        var settings = FrontSettings()
        settings.audience = audience
        settings.canCrossPost = canCrossPost
        return try FrontHarness(settings: settings)
    }

    @Test("every front route says who may reach it, and only sign-in, first-run, invitation, health, protocol and help routes are for anyone")
    func everyRouteSays() throws {
        let front = try Self.front(.household)
        let open = Set(front.front.routes.filter { $0.access == .anyone }.map(\.page.pattern))
        #expect(
            open == [
                "/login", "/logout", "/auth/callback", "/oauth-client-metadata.json", "/manifest.webmanifest", "/healthz",
                "/readyz", "/metrics", "/help",
            ], "\(open.sorted())")
    }

    @Test("to a stranger a household front answers the front door at /, a sign-in redirect for pages, 401 for scripts and forms")
    func strangerAtAHousehold() async throws {
        let front = try Self.front(.household)
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        let home = await front.page("/")
        #expect(home.status == .ok && home.text.contains("data-front-door") && !home.text.lowercased().contains("maya"))
        #expect(home.headers["Cache-Control"] == "no-store")
        let profile = await front.page("/profile/maya.home.test?x=1")
        let location = profile.headers["Location"] ?? ""
        #expect(profile.status == .found && location.hasPrefix("/login?next=") && location.contains("maya.home.test"), "\(location)")
        let data = await front.page("/api/stories/maya.home.test")
        #expect(
            data.status == .unauthorized && data.text.contains("\"error\"") && !data.text.contains("maya.home.test\""),
            "\(data.status) \(data.text.prefix(300))")
        let favourite = await front.send(.post, "/profile/\(maya.rawValue)/story/3k/favorite")
        #expect(favourite.status == .unauthorized || favourite.status == .forbidden, "\(favourite.status)")
        #expect(!favourite.text.contains(maya.rawValue + "/"))
        let login = await front.page("/login")
        #expect(login.status == .ok, "sign-in is for anyone")
    }

    @Test("signed in to a household front, a member sees the strip, kept by no shared cache; a public front shows it to anyone")
    func memberAndPublic() async throws {
        let household = try Self.front(.household)
        let maya = household.stories.addAuthor(handle: "maya.home.test", count: 2, now: household.clock.now)
        let session = try household.signIn(did: maya, handle: "maya.home.test")
        let home = await household.send(.get, "/", headers: [("Cookie", "gs_session=\(session)")])
        #expect(home.status == .ok && home.text.contains("data-strip") && !home.text.contains("data-front-door"))
        #expect(home.headers["Cache-Control"] == "no-store")

        let open = try Self.front(.public)
        _ = open.stories.addAuthor(handle: "maya.home.test", count: 2, now: open.clock.now)
        let anyone = await open.page("/")
        #expect(anyone.status == .ok && anyone.text.contains("data-strip") && anyone.text.lowercased().contains("maya"))
    }

    @Test("the front door shows the name the owner chose, escaped, and nothing else of the household")
    func frontDoorName() async throws {
        var settings = FrontSettings()
        settings.audience = .household
        settings.householdName = "The Costas & <b>co</b>"
        settings.handleExample = "yourname.costa.family"
        let front = try FrontHarness(settings: settings)
        _ = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        let door = await front.page("/")
        #expect(door.text.contains("<h1>The Costas &amp; &lt;b&gt;co&lt;/b&gt;</h1>"), "\(door.text)")
        #expect(!door.text.lowercased().contains("maya"))
        let login = await front.page("/login")
        #expect(login.text.contains("placeholder=\"yourname.costa.family\""), "the example handle is in the household's domain")
        #expect(!login.text.lowercased().contains("maya"), "and names no member")
    }

    @Test("the create form says who will see the story: the household's members, anyone who reaches the server, or anyone on Grain")
    func createFormSaysWhoSees() async throws {
        for (audience, crossPost, words) in [
            (Audience.household, false, "Only this household’s members see your story"),
            (.public, false, "Stories on this server are public"),
            (.public, true, "Stories on Grain are public"),
        ] {
            let front = try Self.front(audience, canCrossPost: crossPost)
            let session = try front.signIn(did: Self.maya, handle: "maya.home.test")
            let form = await front.send(.get, "/create", headers: [("Cookie", "gs_session=\(session)")])
            #expect(form.status == .ok && form.text.contains(words), "\(audience) \(crossPost): \(form.status)")
        }
    }

    /// A household front whose household has a guest (`oma`), besides the owner and `jonas`.
    static func householdWithGuest() async throws -> (FrontHarness, FakeHousehold, guest: String) {
        let household = FakeHousehold()
        _ = try await household.createOwner(NewMember(name: "owner", displayName: "", password: "x"), now: .now)
        let guestDID = "did:plc:" + String(repeating: "g", count: 24)
        household.state.withLock {
            $0.members.append(
                HouseholdMember(
                    did: guestDID, handle: "oma.home.test", role: .guest, status: "active", removalDue: nil, storageBytes: 0,
                    quotaBytes: nil, recordCount: 0))
        }
        var settings = FrontSettings()
        settings.audience = .household
        let front = try FrontHarness(household: household, settings: settings)
        _ = front.stories.addAuthor(handle: "jonas.home.test", count: 2, now: front.clock.now)
        return (front, household, try front.signIn(did: try DID(guestDID), handle: "oma.home.test"))
    }

    @Test("a guest watches the strip but has no Your story tile and no New story link, and every poster's route refuses them with 403")
    func guestsDoNotPost() async throws {
        let (front, _, session) = try await Self.householdWithGuest()
        let cookie = [("Cookie", "gs_session=\(session)")]
        let home = await front.send(.get, "/", headers: cookie)
        #expect(home.status == .ok && home.text.contains("data-strip"))
        #expect(!home.text.contains("data-your-story") && !home.text.contains(">New story<"))
        let open = Set(front.front.routes.filter { $0.access == .anyone }.map(\.page.pattern))
        #expect(
            open.subtracting([
                "/login", "/logout", "/auth/callback", "/oauth-client-metadata.json", "/manifest.webmanifest", "/healthz", "/readyz", "/metrics",
                "/help",
            ])
                == ["/welcome", "/join/:token", "/kiosk/pair/:token", "/s/:token", "/s/:token/photo.jpg", "/s/:token/preview.jpg"],
            "a household's own open routes are its first run, its invitations, pairing links and share links: \(open.sorted())")
        let posters = front.front.routes.filter { $0.access == .posters }
        #expect(posters.count >= 8, "\(posters.map(\.page.pattern))")
        for route in posters where route.method == .get {
            let answer = await front.send(.get, route.page.pattern.replacingOccurrences(of: ":did", with: "did:plc:x"), headers: cookie)
            #expect(answer.status == .forbidden, "GET \(route.page.pattern) answered a guest \(answer.status)")
        }
        let upload = await front.send(.post, "/create", headers: cookie)
        #expect(upload.status == .forbidden && upload.text.contains("guest"), "\(upload.status)")
    }

    @Test("a paired screen's cookie opens the kiosk and its playlist, nothing else; its pages are its own in the page cache")
    func screensSeeOnlyTheKiosk() async throws {
        let (front, household, _) = try await Self.householdWithGuest()
        let token = try household.createPairing(by: FakeHousehold.ownerDID, name: "Kitchen", kioskQuery: "", memories: false, now: front.clock.now)
        let (credential, _) = try #require(try household.completePairing(token, now: front.clock.now))
        let cookie = [("Cookie", "gs_screen=\(credential)")]
        let photoHeaders: HTTPHeaders = ["Cookie": "gs_screen=\(credential)"]
        let kiosk = await front.send(.get, "/kiosk", headers: cookie)
        #expect(kiosk.status == .ok && kiosk.text.contains("data-kiosk") && !kiosk.text.contains("data-kiosk-exit"))
        #expect(kiosk.headers["Cache-Control"] == "no-store")
        #expect(await front.send(.get, "/api/kiosk", headers: cookie).status == .ok)
        // A stranger asking just after is not served the screen's cached kiosk.
        #expect(await front.page("/kiosk").status == .found)
        let door = await front.send(.get, "/", headers: cookie)
        #expect(door.text.contains("data-front-door") && !door.text.contains("data-strip"), "a screen at / gets the front door")
        for path in ["/profile/jonas.home.test", "/activity", "/kiosk/settings", "/api/stories/jonas.home.test"] {
            let answer = await front.send(.get, path, headers: cookie)
            #expect(answer.status == .found || answer.status == .unauthorized, "GET \(path) answered a screen \(answer.status)")
        }
        #expect(front.front.admitsPhotos(Request(method: .get, path: "/img/x", headers: photoHeaders)))
        #expect(try household.removeScreen(id: try #require(try household.screens().first).id))
        #expect(await front.send(.get, "/kiosk", headers: cookie).status == .found, "a removed screen is a stranger at once")
        #expect(!front.front.admitsPhotos(Request(method: .get, path: "/img/x", headers: photoHeaders)))
    }
}
