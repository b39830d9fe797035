import ATProto
import FrontState
import HTTPServer

/// The owner's `/admin` page: members with their storage use and quota, disabling, removal after a grace period
/// (with its warning and an undo), and the invitations, with a way to take one back. Server-rendered forms, each
/// with the CSRF token, each answered with the page again and what happened.
struct AdminController: Sendable {
    let pages: PageRenderer
    let administration: MemberAdministration
    let pageCache: PageCache

    /// `GET /admin`.
    func page(_ context: RequestContext) async throws -> Response {
        guard try owner(context) != nil else { return .redirect(to: SiteURL.login.with([("next", SiteURL.admin.path)]), status: .found) }
        return try render(context, outcome: Outcome())
    }

    /// `POST /admin`: one change, named by the form's `action`, to the member named by `member`.
    func change(_ context: RequestContext) async throws -> Response {
        guard let owner = try owner(context) else { return .redirect(to: SiteURL.login.with([("next", SiteURL.admin.path)])) }
        let form = context.form
        var outcome = Outcome()
        do {
            if form["action"] == "remove-screen" {
                let removed = try administration.removeScreen(id: form["screen"] ?? "", by: owner.handle)
                outcome.notice = removed ? "The screen is removed; it shows nothing from its next request on." : nil
                outcome.error = removed ? nil : "That screen was already removed."
            } else if form["action"] == "revoke-invitation" {
                let revoked = try administration.revokeInvitation(id: form["invitation"] ?? "", by: owner.handle, now: context.now)
                outcome.notice = revoked ? "The invitation was taken back; its link no longer works." : nil
                outcome.error = revoked ? nil : "That invitation was no longer open."
            } else {
                let result = try await administration.apply(
                    try Self.change(form), to: form["member"] ?? "", by: owner.handle, now: context.now)
                outcome.notice = result.message
            }
            pageCache.removeAll()
            return try render(context, outcome: outcome, status: outcome.error == nil ? .ok : .conflict)
        } catch let error as HouseholdError {
            outcome.error = error.description
            return try render(context, outcome: outcome, status: .badRequest)
        }
    }

    /// The change a form asks for; removal only with its box ticked.
    static func change(_ form: FormFields) throws(HouseholdError) -> MemberChange {
        switch form["action"] ?? "" {
        case "disable": return .disable
        case "enable": return .enable
        case "restore": return .restore
        case "quota": return .quota(try MemberChange.parseQuota(form["quota"] ?? ""))
        case "remove":
            guard form["confirm"] == "yes" else { throw HouseholdError.removalUnconfirmed }
            return .remove
        default: throw HouseholdError.unknownAction
        }
    }

    /// The signed-in owner; nil for a visitor who is not signed in; 403 for any other member.
    func owner(_ context: RequestContext) throws -> BrowserSession? {
        guard let session = context.session else { return nil }
        guard try administration.isOwner(session.did) else { throw HTTPError(.forbidden, HouseholdError.notOwner.description) }
        return session
    }

    struct Outcome {
        var notice: String?
        var error: String?
    }

    func render(_ context: RequestContext, outcome: Outcome, status: HTTPStatus = .ok) throws -> Response {
        let csrf = context.csrf.value
        let model = AdminPage.Model(
            csrf: csrf, notice: outcome.notice, error: outcome.error, graceDays: AdminPage.graceDays,
            members: try administration.members().map { AdminPage.Row($0, csrf: csrf) },
            invitations: try administration.invitations(now: context.now).map { AdminPage.InvitationRow($0, csrf: csrf) },
            screens: try administration.screens().map { AdminPage.ScreenRow($0, csrf: csrf, now: context.now) },
            inviteHref: SiteURL.invite.path, reportsHref: SiteURL.adminReports.path)
        return try pages.render("admin", title: "Members", model: model, status: status, form: true, context: context)
    }
}

extension AdminController {
    /// The routes this controller answers, one line per method and page.
    var routes: [Route] {
        [
            Route(method: .get, page: .admin, access: .signedIn, handler: page),
            Route(method: .post, page: .admin, access: .signedIn, bodyLimit: 4096, handler: change),
        ]
    }
}
