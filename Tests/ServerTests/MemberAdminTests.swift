import App
import Backend
import Foundation
import TestSupport
import Testing

@testable import Server

/// The owner's administration of members: the `/admin` page (owner only, CSRF on every form, no script needed) and
/// `grain-stories users ...` against the real executable, both through one `MemberAdministration`.
@Suite(.serialized)
struct MemberAdminTests {
    func csrf(_ page: Browser.Page) throws -> String {
        try #require(captures(#"name="csrf" value="([^"]+)""#, in: page.body).first)
    }

    func signedIn(_ live: LiveApp, _ name: String) async throws -> Browser {
        let browser = Browser(base: live.base)
        try await browser.signInThroughFront(handle: "\(name).home.test", password: "\(name)-stories")
        return browser
    }

    /// The text of one member's cell (`data-status`, `data-storage`, `data-quota`) on the admin page.
    func cell(_ page: Browser.Page, _ member: String, _ name: String) -> String? {
        captures(#"data-member="\#(member)\.home\.test">(?s:.*?)data-\#(name)>([^<]*)<"#, in: page.body).first
    }

    @Test("/admin is the owner's: a visitor is sent to sign in, a member is refused, the owner sees members with their storage")
    func ownerOnly() async throws {
        // setup
        let live = try await LiveApp()

        // act
        let anonymous = try await Browser(base: live.base).get("/admin")
        let jonas = try await signedIn(live, "jonas").get("/admin")
        let maya = try await signedIn(live, "maya")
        let page = try await maya.get("/admin")

        // validate
        #expect(anonymous.status == 302)
        #expect(anonymous.location == "/login?next=/admin")
        #expect(jonas.status == 403)
        #expect(jonas.body.contains("Only the household’s owner"))
        #expect(page.status == 200)
        for member in ["maya", "jonas", "ines"] { #expect(page.body.contains(#"data-member="\#(member).home.test""#)) }
        #expect(cell(page, "maya", "role") == "Owner" && cell(page, "jonas", "role") == "Member", "each account's role is shown")
        #expect(page.body.contains(#"<a href="/admin/reports">Reports from members</a>"#))
        let storage = try #require(cell(page, "maya", "storage"))
        #expect(storage.hasSuffix("kB") || storage.hasSuffix("MB"), "maya's demo photos take room: \(storage)")
        // Every form posts with the token, and there is no script to need.
        let forms = page.body.components(separatedBy: "<form method=\"post\"").count - 1
        #expect(forms > 6)
        #expect(page.body.components(separatedBy: #"<input type="hidden" name="csrf" value=""#).count - 1 == forms)
        #expect(!page.body.contains("<script src=\"/js/admin"))
        await live.stop()
    }

    @Test("the owner disables, enables, sets a quota, removes with a warning, keeps, and a due removal deletes the member")
    func changes() async throws {
        // setup
        let live = try await LiveApp()
        let maya = try await signedIn(live, "maya")
        let jonas = try await signedIn(live, "jonas")
        let ines = try await signedIn(live, "ines")
        let token = try csrf(try await maya.get("/admin"))
        func post(_ fields: [(String, String)]) async throws -> Browser.Page {
            try await maya.post("/admin", form: [("csrf", token)] + fields)
        }

        // act and validate: a form without the token changes nothing
        let forged = try await maya.post("/admin", form: [("action", "disable"), ("member", "jonas.home.test")])
        #expect(forged.status == 403)
        #expect(try live.app.backend?.store.accounts.account("jonas.home.test")?.isDisabled == false)

        // disable: jonas's browser session ends, and he can no longer sign in
        let disabled = try await post([("action", "disable"), ("member", "jonas.home.test")])
        #expect(disabled.status == 200)
        #expect(disabled.body.contains("@jonas.home.test is disabled and signed out everywhere"))
        #expect(cell(disabled, "jonas", "status") == "disabled")
        #expect(try await jonas.get("/create").status == 302, "jonas's session ended")
        #expect(try live.app.backend?.store.accounts.account("jonas.home.test")?.isDisabled == true)
        #expect(try BackendAccountsProbe.canSignIn(live, "jonas.home.test") == false)
        let refused = try await Browser(base: live.base).signInAnswer(handle: "jonas.home.test", password: "jonas-stories")
        #expect(refused.status == 403)
        #expect(refused.body.contains("owner has disabled this account"), "after the right password, jonas is told why")
        let enabled = try await post([("action", "enable"), ("member", "jonas")])
        #expect(cell(enabled, "jonas", "status") == "active")
        #expect(try BackendAccountsProbe.canSignIn(live, "jonas.home.test") == true)

        // the owner cannot be disabled; an unknown name is named back
        let owner = try await post([("action", "disable"), ("member", "maya.home.test")])
        #expect(owner.status == 400)
        #expect(owner.body.contains("owner cannot be disabled"))
        let unknown = try await post([("action", "disable"), ("member", "zed")])
        #expect(unknown.body.contains("There is no member zed.home.test"))

        // a quota: shown in the same units it is refused in
        let quota = try await post([("action", "quota"), ("member", "ines.home.test"), ("quota", "1K")])
        #expect(cell(quota, "ines", "quota") == "1 kB")
        let over = try await ines.postPhoto(try gradientJPEG(width: 300, height: 400), csrf: try await ines.createFormToken())
        #expect(over.status == 413 || over.status == 400 || over.status == 507, "over the quota answered \(over.status)")
        #expect(over.body.contains("storage quota of 1 kB"))
        _ = try await post([("action", "quota"), ("member", "ines.home.test"), ("quota", "none")])

        // removal needs its box ticked; then it is pending, and can be taken back
        let unconfirmed = try await post([("action", "remove"), ("member", "ines.home.test")])
        #expect(unconfirmed.status == 400)
        #expect(unconfirmed.body.contains("Nothing was removed"))
        let removed = try await post([("action", "remove"), ("member", "ines.home.test"), ("confirm", "yes")])
        #expect(removed.body.contains("will be deleted, with every story and photo, on"))
        #expect(cell(removed, "ines", "status")?.hasPrefix("removal pending: deleted on ") == true)
        #expect(removed.body.contains("deletes every story, comment and photo they posted"))
        let kept = try await post([("action", "restore"), ("member", "ines.home.test")])
        #expect(cell(kept, "ines", "status") == "active")
        #expect(kept.body.contains("Their removal is cancelled"))

        // a removal that comes due deletes the account with its records at the next housekeeping
        _ = try await post([("action", "remove"), ("member", "ines.home.test"), ("confirm", "yes")])
        live.clock.advance(hours: 24 * 8)
        await Maintenance.run(live.app, blobs: false)
        let members = try #require(try live.app.front.administration?.members())
        #expect(members.map(\.handle) == ["maya.home.test", "jonas.home.test"])
        await live.stop()
    }

    @Test("the owner takes an invitation back with the /admin form: its link stops working; a forged form changes nothing")
    func revokeInvitation() async throws {
        // setup: maya (the owner) makes an invitation link
        let live = try await LiveApp()
        let maya = try await signedIn(live, "maya")
        let made = try await maya.post("/invite", form: [("csrf", try csrf(try await maya.get("/invite")))])
        let link = try #require(captures(#"readonly value="([^"]+)""#, in: made.body).first)
        let join = String(link.dropFirst(live.base.count))
        let admin = try await maya.get("/admin")
        let id = try #require(captures(#"<tr data-invitation="([^"]+)">"#, in: admin.body).first)
        let row = try #require(captures(#"(<tr data-invitation="\#(id)">.*?</tr>)"#, in: admin.body).first)
        let token = try #require(captures(#"name="csrf" value="([^"]+)""#, in: row).first)

        // act: the form without its token, then the form as the page has it, then again
        let forged = try await maya.post("/admin", form: [("action", "revoke-invitation"), ("invitation", id)])
        let stillOpen = try await Browser(base: live.base).get(join)
        let revoked = try await maya.post("/admin", form: [("csrf", token), ("action", "revoke-invitation"), ("invitation", id)])
        let guest = try await Browser(base: live.base).get(join)
        let again = try await maya.post("/admin", form: [("csrf", token), ("action", "revoke-invitation"), ("invitation", id)])

        // validate
        #expect(row.contains(#"<td data-state>open</td>"#) && row.contains(#"value="revoke-invitation""#), "\(row)")
        #expect(forged.status == 403)
        #expect(stillOpen.status == 200, "a forged form takes nothing back")
        #expect(revoked.status == 200)
        #expect(revoked.body.contains("The invitation was taken back; its link no longer works."))
        let after = try #require(captures(#"(<tr data-invitation="\#(id)">.*?</tr>)"#, in: revoked.body).first)
        #expect(after.contains(#"<td data-state>revoked</td>"#) && !after.contains("Take back"), "\(after)")
        #expect(guest.status == 404, "the link no longer works")
        #expect(again.status == 409 && again.body.contains("That invitation was no longer open."))
        await live.stop()
    }

    @Test("every users command run from another folder works on the data, key and templates the configuration file names")
    func commandsReadTheConfigurationFile() throws {
        // setup: a configuration file as the package ships it, named by GRAIN_STORIES_CONFIG, and a working folder
        // that holds nothing of the household (so ./data, ./Templates and the default key folder are all wrong)
        let root = TemporaryDirectory("users-config")
        defer { root.remove() }
        let data = root.path + "/var/lib/grain-stories"
        let config = root.path + "/grain-stories.conf"
        let text = """
            data = \(data)
            key-dir = \(root.path)/var/lib/grain-stories-keys
            templates = \(repositoryRoot.appendingPathComponent("Templates").path)
            public = \(repositoryRoot.appendingPathComponent("Public").path)
            handle-domain = family.test
            """
        #expect(FileManager.default.createFile(atPath: config, contents: Data(text.utf8)))
        let elsewhere = root.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        func users(_ words: [String], input: String? = nil) throws -> (status: Int32, output: String) {
            try ServerProcess.run(["users"] + words, input: input, environment: ["GRAIN_STORIES_CONFIG": config], directory: elsewhere)
        }

        // act
        let maya = try users(["add", "maya", "--password-stdin"], input: "a household password\n")
        let jonas = try users(["add", "jonas", "--password-stdin"], input: "jonas's password\n")
        let disable = try users(["disable", "jonas"])
        let quota = try users(["quota", "jonas", "2G"])
        let list = try users(["list"])

        // validate
        #expect(maya.status == 0 && jonas.status == 0, "\(maya.output)\n\(jonas.output)")
        #expect(disable.status == 0 && disable.output.contains("@jonas.family.test is disabled"), "\(disable.output)")
        #expect(quota.status == 0, "\(quota.output)")
        #expect(list.status == 0, "\(list.output)")
        let lines = list.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("maya.family.test") && $0.contains("owner") }, "\(list.output)")
        #expect(lines.contains { $0.hasPrefix("jonas.family.test") && $0.contains("disabled") && $0.contains("2000000000") }, "\(list.output)")
        #expect(FileManager.default.fileExists(atPath: data + "/backend.sqlite"))
        let keys = try FileManager.default.contentsOfDirectory(atPath: root.path + "/var/lib/grain-stories-keys")
        #expect(keys.contains { $0.hasSuffix(".key") }, "the key is where the file says: \(keys)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty, "nothing was made in the working folder")
    }

    @Test("users remove schedules a member's deletion and users restore keeps them, from the command line")
    func removeAndRestoreFromCommandLine() async throws {
        // setup: an owner and a member made with `users add`
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("users-\(UUID().uuidString)").path
        try ServerProcess.addUser("maya", password: "a household password", dataDirectory: data)
        try ServerProcess.addUser("jonas", password: "jonas's password", dataDirectory: data)
        let on = ["--data", data, "--key-dir", data + "-keys"]

        // act
        let remove = try ServerProcess.run(["users", "remove", "jonas"] + on)
        let pending = try ServerProcess.run(["users", "list"] + on)
        let server = try await ServerProcess(dataDirectory: data)
        let removedSignIn = try await Self.signInSucceeds(server.base, "jonas", "jonas's password")
        server.stop()
        let restore = try ServerProcess.run(["users", "restore", "jonas"] + on)
        let kept = try ServerProcess.run(["users", "list"] + on)
        let unknown = try ServerProcess.run(["users", "remove", "zed"] + on)
        let again = try await ServerProcess(dataDirectory: data)
        defer { again.stop() }
        let keptSignIn = try await Self.signInSucceeds(again.base, "jonas", "jonas's password")

        // validate
        #expect(remove.status == 0, "\(remove.output)")
        #expect(remove.output.contains("@jonas.home.test is signed out and will be deleted, with every story and photo, on "), "\(remove.output)")
        let pendingRow = #"jonas\.home\.test\s+member\s+removal pending \((\d{4}-\d\d-\d\d)\)"#
        let due = try #require(captures(pendingRow, in: pending.output).first, "\(pending.output)")
        #expect(remove.output.contains(due), "the list shows the date the removal said")
        #expect(!removedSignIn, "a member whose removal is pending cannot sign in")
        #expect(restore.status == 0, "\(restore.output)")
        #expect(restore.output.contains("@jonas.home.test can sign in again. Their removal is cancelled."), "\(restore.output)")
        #expect(kept.output.split(separator: "\n").contains { $0.hasPrefix("jonas.home.test") && $0.contains("active") }, "\(kept.output)")
        #expect(unknown.status == 1 && unknown.output.contains("zed.home.test"), "\(unknown.output)")
        #expect(keptSignIn, "kept, jonas signs in with his own password again")
    }

    /// Whether the sign-in form lets `name` in with `password` (a refusal is an answer here, not a failure).
    static func signInSucceeds(_ base: String, _ name: String, _ password: String) async throws -> Bool {
        let browser = Browser(base: base)
        let login = try await browser.get("/login?next=/create")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: login.body).first)
        let started = try await browser.post("/login", form: [("csrf", csrf), ("handle", name + ".home.test"), ("next", "/create")])
        guard let authorize = started.location else { return false }
        let form = try await browser.get(authorize)
        guard let requestURI = captures(#"name="request_uri" value="([^"]+)""#, in: form.body).first,
            let formCSRF = captures(#"name="csrf" value="([^"]+)""#, in: form.body).first
        else { return false }
        let approved = try await browser.post(
            "/oauth/authorize",
            form: [("request_uri", unescape(requestURI)), ("csrf", unescape(formCSRF)), ("username", name), ("password", password)])
        guard let callback = approved.location else { return false }
        return try await browser.get(callback).status == 303
    }

    @Test("grain-stories users list, disable, quota, reset-password and enable work on the data directory")
    func commandLine() async throws {
        // setup: an owner and a member made with `users add`
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("users-\(UUID().uuidString)").path
        try ServerProcess.addUser("maya", password: "a household password", dataDirectory: data)
        try ServerProcess.addUser("jonas", password: "jonas's password", dataDirectory: data)
        let on = ["--data", data, "--key-dir", data + "-keys"]

        // act
        let disable = try ServerProcess.run(["users", "disable", "jonas"] + on)
        let quota = try ServerProcess.run(["users", "quota", "jonas", "500M"] + on)
        let list = try ServerProcess.run(["users", "list"] + on)
        let owner = try ServerProcess.run(["users", "remove", "maya"] + on)
        let resetDisabled = try ServerProcess.run(["users", "reset-password", "jonas"] + on)
        let enable = try ServerProcess.run(["users", "enable", "jonas.home.test"] + on)
        let reset = try ServerProcess.run(["users", "reset-password", "jonas"] + on)
        let server = try await ServerProcess(dataDirectory: data)
        defer { server.stop() }

        // validate
        #expect(disable.status == 0 && disable.output.contains("@jonas.home.test is disabled"), "\(disable.output)")
        #expect(quota.status == 0 && quota.output.contains("a storage quota of 500000000 bytes"), "\(quota.output)")
        let lines = list.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("HANDLE") && $0.contains("STORAGE") })
        #expect(lines.contains { $0.hasPrefix("maya.home.test") && $0.contains("owner") && $0.contains("active") })
        #expect(lines.contains { $0.hasPrefix("jonas.home.test") && $0.contains("disabled") && $0.contains("500000000") })
        #expect(owner.status == 1 && owner.output.contains("owner cannot be disabled, removed"), "\(owner.output)")
        #expect(resetDisabled.status == 1 && resetDisabled.output.contains("enable them first"), "\(resetDisabled.output)")
        let password = try #require(captures(#"New password \(shown once\): (\S+)"#, in: reset.output).first, "\(reset.output)")
        #expect(enable.status == 0)
        let browser = Browser(base: server.base)
        try await browser.signInThroughFront(handle: "jonas.home.test", password: password)
        #expect(try await browser.get("/create").status == 200)
    }
}

/// Whether the authorization server's directory lets an account sign in.
enum BackendAccountsProbe {
    static func canSignIn(_ live: LiveApp, _ handle: String) throws -> Bool {
        let store = try #require(live.app.backend?.store)
        return try BackendAccounts(store: store).account(handle: handle) != nil
    }
}
