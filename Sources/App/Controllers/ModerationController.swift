import ATProto
import FrontState
import HTTPServer
import HatkClient
import Lexicon
import Readers

/// The household owner's review of reports: what members reported, and hiding a story for everyone. Only the
/// embedded household has it.
struct ModerationController: Sendable {
    let pages: PageRenderer
    let moderation: any Moderation
    let pageCache: PageCache
    /// The reasons' names, so the owner reads "Copyright" where a report holds `copyright`.
    let labels: LabelPolicies

    /// The signed-in owner, or the answer for anyone else.
    func owner(_ context: RequestContext) throws -> BrowserSession? {
        guard let session = context.session else { return nil }
        do {
            _ = try moderation.openReports(by: session.did)
        } catch let error as HouseholdError where error == .notOwner {
            throw HTTPError(.forbidden, "Only the household’s owner reviews reports.")
        }
        return session
    }

    /// `GET /admin/reports`.
    func reports(_ context: RequestContext) async throws -> Response {
        guard let session = try owner(context) else {
            return .redirect(to: SiteURL.login.with([("next", SiteURL.adminReports.path)]), status: .found)
        }
        return try await page(context, owner: session.did, notice: Self.notices[context.query("done") ?? ""])
    }

    static let notices = ["hidden": "The story is hidden for everyone.", "dismissed": "The report is closed."]

    func page(_ context: RequestContext, owner: String, notice: String?) async throws -> Response {
        let reports = try moderation.openReports(by: owner)
        let definitions = await labels.current().definitions
        // Handles read better than DIDs; an account that is gone keeps its DID.
        var names: [String: String] = [:]
        for did in Set(reports.flatMap { [$0.subjectDID, $0.reportedBy] }).prefix(200) {
            names[did] = (try? await context.reader.profile(did)).flatMap { $0.map { "@" + $0.handle } }
        }
        let entries = reports.map { report -> AdminReportsModel.Entry in
            let subjectName = names[report.subjectDID] ?? report.subjectDID
            var story: ATURI?
            if let uri = try? ATURI(report.subject), uri.collection == StoryRecord.collection, RecordKey.isValid(uri.rkey) { story = uri }
            return AdminReportsModel.Entry(
                id: report.id, subject: story == nil ? "The account \(subjectName)" : "A story by \(subjectName)",
                subjectHref: story.map { SiteURL.story(did: $0.authority, rkey: $0.rkey).path } ?? SiteURL.profile(actor: report.subjectDID).path,
                isStory: story != nil, label: definitions.first { $0.identifier == report.label }?.displayName ?? report.label, reason: report.reason,
                reportedBy: names[report.reportedBy] ?? report.reportedBy,
                ago: RelativeTime.short(UTCTime(iso8601: report.createdAt) ?? context.now, now: context.now))
        }
        let model = AdminReportsModel(csrf: context.csrf.value, entries: entries, notice: notice)
        return try pages.render("admin-reports", title: "Reports", model: model, form: true, context: context)
    }

    /// `POST /admin/reports` with `id` and `action` (`hide`: hide the reported story for everyone; `dismiss`).
    func resolve(_ context: RequestContext) async throws -> Response {
        guard let session = try owner(context) else {
            return .redirect(to: SiteURL.login.with([("next", SiteURL.adminReports.path)]), status: .found)
        }
        guard let id = Int(context.form["id"] ?? ""), let report = try moderation.openReports(by: session.did).first(where: { $0.id == id })
        else { return .redirect(to: SiteURL.adminReports.path) }
        switch context.form["action"] {
        case "hide":
            guard let uri = try? ATURI(report.subject), uri.collection == StoryRecord.collection else {
                throw HTTPError(.badRequest, "Only a reported story can be hidden.")
            }
            try moderation.hide(uri, by: session.did, now: context.now)
            pageCache.removeAll()
            return .redirect(to: SiteURL.adminReports.with([("done", "hidden")]))
        case "dismiss":
            try moderation.dismiss(report: id, by: session.did, now: context.now)
            return .redirect(to: SiteURL.adminReports.with([("done", "dismissed")]))
        default:
            throw HTTPError(.badRequest, "Choose to hide the story or to close the report.")
        }
    }
}

extension ModerationController {
    /// The routes this controller answers, one line per method and page.
    var routes: [Route] {
        [
            Route(method: .get, page: .adminReports, access: .signedIn, handler: reports),
            Route(method: .post, page: .adminReports, access: .signedIn, bodyLimit: 4096, handler: resolve),
        ]
    }
}
