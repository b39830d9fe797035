import ATProto
import Foundation
import HTTPServer
import HatkClient
import Imaging
import Lexicon
import Readers
import Synchronization
import TestSupport
import Testing

@testable import App
@testable import Publishing

/// Every form the server renders is posted as a browser would post it, and the handler may read no field the
/// form does not have: the first-run form once lacked the setup code its handler required, so nobody could create
/// a household in a browser, while the tests posted the field straight to the handler and passed. The pages are
/// found by following links from the household's pages as its owner, and every POST route of the table must be
/// the action of a rendered form or be listed below with the script that calls it.
@Suite struct RenderedFormsTests {
    /// The POST routes no rendered form submits: the script (or manifest) that sends each, and the fields it sends.
    static let scriptEndpoints: [String: (source: String, fields: Set<String>)] = [
        SiteURL.seen.pattern: ("Public/js/viewer.js", ["csrf", "uri", "flush"]),
        SiteURL.createInspect.pattern: ("Public/js/create.js", ["csrf", "photo"]),
        SiteURL.share.pattern: ("Sources/App/Controllers/WebManifest.swift", ["photo"]),
    ]

    /// What a person would type into a field, by its name; other text fields keep their rendered value or get "x".
    static let typed: [String: String] = [
        "setupCode": FakeHousehold.setupCode, "name": "ana", "displayName": "Ana", "password": "a good password",
        "confirm": "a good password", "text": "Lovely light", "quota": "500M", "location": "Kitchen", "place": "Reykjavik",
        "reason": "It is not ours", "authors": "jonas.home.test", "night_start": "22:00", "night_end": "07:00",
    ]

    struct Household {
        let front: FrontHarness
        let household: FakeHousehold
        let stub: StubHatk
        let owner: Visitor
        let stranger: Visitor
        /// Pages links do not lead to: the first-run page, an invitation, a report, one's own story's pages.
        var seeds: [String] = []
    }

    /// A household with stories, a comment of the owner's, a report and someone muted, before its owner exists.
    static func household() async throws -> Household {
        try #require(await CreateFormTests.finder.table() != nil, "make places-data writes \(CreateFormTests.placeNames)")
        let household = FakeHousehold()
        let stub = try StubHatk()
        let moderation = ActivityAndHouseholdTests.FakeModeration(owner: FakeHousehold.ownerDID)
        let front = try FrontHarness(
            household: household, writer: stub.url, moderation: moderation,
            placeSearch: CreateFormTests.finder, descriptions: StoryDescriptionTests.KeptDescriptions())
        let now = front.clock.now
        let owner = front.stories.addAuthor(handle: "owner.home.test", count: 2, now: now)
        let jonas = front.stories.addAuthor(handle: "jonas.home.test", count: 2, now: now)
        let own = front.stories.story(owner, 0)
        let theirs = front.stories.story(jonas, 0)
        let author = ProfileView(cid: "", did: owner.rawValue, handle: "owner.home.test", displayName: "Owner")
        front.stories.content.withLock {
            $0.comments[theirs.uri] = [
                CommentView(
                    uri: "at://\(owner.rawValue)/social.grain.comment/3kaaaaaaaaaa1", cid: "bafy", author: author, text: "So good",
                    createdAt: now.iso8601)
            ]
            $0.relationships[owner.rawValue] = ViewerRelationships(
                muted: ["did:plc:" + String(repeating: "m", count: 24)],
                blocking: ["did:plc:" + String(repeating: "b", count: 24): "at://\(owner.rawValue)/social.grain.graph.block/3kblockaaaaa"])
            // Something new on the activity page, so that it renders its form that marks it seen.
            let jonasProfile = ProfileView(cid: "", did: jonas.rawValue, handle: "jonas.home.test", displayName: "Jonas")
            $0.notifications[owner.rawValue] = [
                ActivityAndHouseholdTests.notification(NotificationReason.storyFavorite, by: jonasProfile, story: own.uri)
            ]
        }
        moderation.state.withLock {
            $0.reports = [
                ReportEntry(
                    id: 7, subject: theirs.uri, subjectDID: jonas.rawValue, label: "spam", reason: "Not ours",
                    reportedBy: FakeHousehold.ownerDID, createdAt: now.iso8601)
            ]
        }
        try FileManager.default.createDirectory(atPath: front.directory.path + "/uploads", withIntermediateDirectories: true)
        let session = try front.signIn(did: owner, handle: "owner.home.test")
        var seeded = Household(
            front: front, household: household, stub: stub, owner: Visitor(front: front, session: session),
            stranger: Visitor(front: front, session: ""))
        let ownStory = SiteURL.story(did: owner.rawValue, rkey: own.rkey)
        seeded.seeds = [
            SiteURL.home.path, SiteURL.admin.path, SiteURL.adminReports.path, SiteURL.invite.path, SiteURL.kioskSettings.path,
            SiteURL.muted.path, SiteURL.activity.path, SiteURL.create.path, ownStory.path,
            SiteURL.deleteStory(did: owner.rawValue, rkey: own.rkey).path,
            SiteURL.comments(did: jonas.rawValue, rkey: theirs.rkey).path, SiteURL.report.with([("story", theirs.uri)]),
            SiteURL.report.with([("actor", jonas.rawValue)]), SiteURL.profile(actor: jonas.rawValue).path,
            SiteURL.story(did: jonas.rawValue, rkey: theirs.rkey).path,
        ]
        return seeded
    }

    /// The forms on every page reachable from `seeds` as `visitor` (at most `limit` pages), one of each kind.
    static func crawl(_ seeds: [String], as visitor: Visitor, limit: Int = 150) async -> [RenderedForm] {
        var queue = seeds
        var visited: Set<String> = []
        var forms: [String: RenderedForm] = [:]
        while let path = queue.first, visited.count < limit {
            queue.removeFirst()
            guard visited.insert(path).inserted else { continue }
            let page = await visitor.get(path)
            guard page.status == .ok, page.headers["Content-Type"]?.hasPrefix("text/html") == true else { continue }
            for form in RenderedForm.all(in: page.text, page: path) {
                forms[form.kind] = form
            }
            queue += RenderedForm.links(in: page.text).filter { link in
                !visited.contains(link) && !link.hasPrefix("/api/") && !link.hasPrefix("/img/") && !link.hasPrefix("/static/")
                    && ![".svg", ".jpg", ".png", ".css", ".js", ".webmanifest"].contains { link.split(separator: "?").first?.hasSuffix($0) == true }
            }
        }
        return Array(forms.values)
    }

    /// Posts `form` as a browser would, watching what the handler reads.
    static func submit(_ form: RenderedForm, as visitor: Visitor) async throws -> (Response, FieldReads) {
        // The form's CSRF token is the visitor's own, as on the page their browser holds.
        let fields = form.submission(typed.merging(["csrf": visitor.csrf]) { $1 }, pressing: form.controls.first { $0.type == "submit" })
        let file = try form.controls.first { $0.type == "file" }.map { (name: $0.name, bytes: try photo()) }
        let reads = FieldReads()
        let response = await FieldReads.$current.withValue(reads) {
            if form.method == "get" { return await visitor.get(form.action + "?" + formEncoded(fields)) }
            if form.multipart {
                let (type, body) = CreateFormTests.multipart(fields, file: file)
                return await visitor.front.send(
                    .post, form.action, headers: [visitor.cookie, ("Content-Type", type), ("Origin", "http://box.local:8080")], body: body)
            }
            return await visitor.post(form.action, fields.filter { $0.0 != "csrf" })
        }
        return (response, reads)
    }

    static func photo() throws -> [UInt8] {
        try Imaging.encodeJPEG(RGBImage(width: 64, height: 48, pixels: [UInt8](repeating: 120, count: 64 * 48 * 3)), quality: 90)
    }

    /// The route of the table whose pattern `path` matches.
    static func route(of path: String, method: HTTPMethod, in routes: [Route]) -> Route? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return routes.first { route in
            let pattern = route.page.pattern.split(separator: "/", omittingEmptySubsequences: false)
            return route.method == method && pattern.count == parts.count
                && zip(pattern, parts).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
        }
    }

    /// A form and who it was rendered for, who posts it.
    struct Rendered {
        var form: RenderedForm
        var visitor: Visitor
    }

    /// Every form the household renders: the first-run form (posted at once, so the owner exists), the create form
    /// holding a shared photo, and the forms on every page reachable as the owner and as a stranger.
    static func forms(of seeded: Household) async throws -> [Rendered] {
        let welcome = RenderedForm.all(in: (await seeded.stranger.get(SiteURL.welcome.path)).text, page: SiteURL.welcome.path)
        try #require(welcome.count == 1, "the first-run page has one form")
        let (created, firstReads) = try await submit(welcome[0], as: seeded.stranger)
        #expect(created.status == .seeOther, "the first-run form as rendered creates the owner: \(created.status) \(created.text.prefix(400))")
        #expect(firstReads.read(from: .body).isSuperset(of: ["setupCode", "name", "password", "confirm"]))

        var share = RenderedForm(method: "post", action: SiteURL.share.path, multipart: true, page: "the manifest's share target")
        share.controls = [RenderedForm.Control(tag: "input", type: "file", name: "photo", value: "")]
        let (staged, _) = try await submit(share, as: seeded.owner)
        #expect(staged.status == .ok, "a share is staged: \(staged.status)")

        let token = try seeded.household.createInvite(by: FakeHousehold.ownerDID, role: .member, now: seeded.front.clock.now)
        let pairing = try seeded.household.createPairing(
            by: FakeHousehold.ownerDID, name: "Kitchen", kioskQuery: "", memories: false, now: seeded.front.clock.now)
        let owners = await crawl(
            seeded.seeds + [
                SiteURL.join(token: token).path, SiteURL.create.with([("place", "Reykjavik")]), SiteURL.screenPairing(token: pairing).path,
            ],
            as: seeded.owner)
        let strangers = await crawl([SiteURL.home.path, SiteURL.login.path], as: seeded.stranger)
        let all =
            welcome.map { Rendered(form: $0, visitor: seeded.stranger) } + strangers.map { Rendered(form: $0, visitor: seeded.stranger) }
            + RenderedForm.all(in: staged.text, page: SiteURL.share.path).map { Rendered(form: $0, visitor: seeded.owner) }
            + owners.map { Rendered(form: $0, visitor: seeded.owner) }
        // Signing out last, so that every other form is posted by a signed-in owner.
        return all.sorted { ($0.form.action == SiteURL.logout.path ? 1 : 0) < ($1.form.action == SiteURL.logout.path ? 1 : 0) }
    }

    @Test("a handler reads only fields its rendered form has, and every POST route is some form's or a script's")
    func handlersReadOnlyRenderedFields() async throws {
        let seeded = try await Self.household()
        let routes = seeded.front.front.routes
        let forms = try await Self.forms(of: seeded)
        #expect(forms.count >= 25, "the crawl found only \(forms.count) forms: \(forms.map(\.form.description))")

        // A form can differ between renderings (the create form's place choices appear only after a search, its staged
        // share only after one): a handler may read any field some rendering of its form has.
        var rendered: [String: Set<String>] = [:]
        for form in forms.map(\.form) {
            guard let route = Self.route(of: form.action, method: form.method == "post" ? .post : .get, in: routes) else {
                Issue.record("\(form) posts to no route")
                continue
            }
            rendered[route.page.pattern, default: []].formUnion(form.names)
        }
        for (form, visitor) in forms.map({ ($0.form, $0.visitor) }) {
            let method: HTTPMethod = form.method == "post" ? .post : .get
            guard let route = Self.route(of: form.action, method: method, in: routes) else { continue }
            let (response, reads) = try await Self.submit(form, as: visitor)
            // Refused by the CSRF check or failed in the handler, a submission would prove nothing; an unreachable
            // sign-in server (502) is as far as a sign-in goes here.
            #expect(
                response.status != .internalServerError && response.status != .forbidden,
                "\(form) answered \(response.status): \(response.text.prefix(300))")
            if method == .post {
                let unknown = reads.read(from: .body).subtracting(rendered[route.page.pattern] ?? [])
                #expect(unknown.isEmpty, "the handler of \(form) reads \(unknown.sorted()), which no rendering of its form has")
            } else {
                // A GET form's handler also reads parameters from links; what matters is that each field does something.
                let ignored = form.names.subtracting(reads.read(from: .query)).subtracting(form.controls.filter { $0.type == "submit" }.map(\.name))
                #expect(ignored.isEmpty, "the handler of \(form) never reads \(ignored.sorted())")
            }
        }

        // What no rendered form posts, a script does: it names each field, and the handler reads nothing else.
        let scriptValues = ["uri": seeded.front.stories.story(try DID(FakeHousehold.jonasDID), 0).uri]
        for route in routes where route.method == .post && rendered[route.page.pattern] == nil {
            guard let endpoint = Self.scriptEndpoints[route.page.pattern] else {
                Issue.record("POST \(route.page.pattern) is no rendered form's action and no known script's endpoint")
                continue
            }
            let source = try String(contentsOf: repositoryRoot.appendingPathComponent(endpoint.source), encoding: .utf8)
            for field in endpoint.fields { #expect(source.contains(field), "\(endpoint.source) never names the field \(field)") }
            var sent = RenderedForm(method: "post", action: route.page.pattern, multipart: endpoint.fields.contains("photo"), page: endpoint.source)
            sent.controls = endpoint.fields.sorted().map { name in
                RenderedForm.Control(tag: "input", type: name == "photo" ? "file" : "hidden", name: name, value: scriptValues[name] ?? "1")
            }
            let (response, reads) = try await Self.submit(sent, as: seeded.owner)
            #expect(response.status != .internalServerError && response.status != .forbidden, "\(sent) answered \(response.status)")
            let unknown = reads.read(from: .body).subtracting(sent.names)
            #expect(unknown.isEmpty, "the handler of \(sent) reads \(unknown.sorted()), which \(endpoint.source) does not send")
        }
        await seeded.stub.stop()
    }
}
