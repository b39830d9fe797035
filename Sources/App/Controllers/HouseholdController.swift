import ATProto
import Foundation
import FrontState
import HTTPServer
import Logging

/// The household's first-run page that creates the owner, and the invitations the owner sends to members.
/// Only the embedded backend has a household.
struct HouseholdController: Sendable {
    let pages: PageRenderer
    let directory: any HouseholdDirectory
    let pageCache: PageCache

    struct AccountFormModel: Encodable {
        var csrf: String
        var heading: String
        var intro: String
        var action: String
        var name: String
        var displayName: String
        var domain: String
        /// The first-run form asks for the setup code printed at start.
        var asksSetupCode: Bool
        var setupCode: String
        /// The problem with the submitted form, shown on the field it is about.
        var errors: FieldErrors
    }

    /// At most one message per field; the template puts each beside its field and marks the field invalid.
    struct FieldErrors: Encodable {
        var setupCode: String?
        var name: String?
        var password: String?
        var confirm: String?
        /// A problem that is about no one field.
        var form: String?

        init(_ error: InputError?) {
            switch error?.field {
            case "setupCode": setupCode = error?.description
            case "name": name = error?.description
            case "password": password = error?.description
            case "confirm": confirm = error?.description
            default: form = error?.description
            }
        }
    }

    typealias InputError = NewMember.FieldError

    static let welcomeHeading = "Welcome to your stories"
    static let welcomeIntro =
        "Nobody has an account here yet. Create the first one: you become the household’s owner and can invite the others. "
        + "To show this server is yours, enter the setup code it printed when it started."
    static let joinHeading = "Join the household"
    static func joinIntro(_ role: HouseholdRole) -> String {
        role == .guest
            ? "You were invited to watch this household’s stories as a guest: you can see them, favourite them and comment. "
                + "Choose a name and a password."
            : "You were invited to this household’s stories. Choose a name and a password."
    }

    func accountForm(
        _ context: RequestContext, heading: String, intro: String, action: String, asksSetupCode: Bool = false,
        error: InputError? = nil, status: HTTPStatus = .ok
    ) throws -> Response {
        // What the person typed comes back, except the passwords.
        let model = AccountFormModel(
            csrf: context.csrf.value, heading: heading, intro: intro, action: action, name: context.form["name"] ?? "",
            displayName: context.form["displayName"] ?? "", domain: directory.handleDomain, asksSetupCode: asksSetupCode,
            setupCode: asksSetupCode ? context.form["setupCode"] ?? "" : "", errors: FieldErrors(error))
        return try pages.render("account-form", title: heading, model: model, status: status, form: true, context: context)
    }

    /// `GET /welcome`.
    func welcome(_ context: RequestContext) async throws -> Response {
        guard try directory.needsOwner() else { return .redirect(to: SiteURL.home.path, status: .found) }
        return try accountForm(
            context, heading: Self.welcomeHeading, intro: Self.welcomeIntro, action: SiteURL.welcome.path, asksSetupCode: true)
    }

    /// `POST /welcome`: only someone who can read the server's setup code (its operator) makes the owner, so the
    /// first stranger to find a fresh server on the network cannot.
    func createOwner(_ context: RequestContext) async throws -> Response {
        let retry = { (error: InputError, status: HTTPStatus) in
            try accountForm(
                context, heading: Self.welcomeHeading, intro: Self.welcomeIntro, action: SiteURL.welcome.path, asksSetupCode: true,
                error: error, status: status)
        }
        guard try directory.needsOwner() else { throw HTTPError(.conflict, HouseholdError.alreadySetUp.description) }
        let code = (context.form["setupCode"] ?? "").trimmingCharacters(in: .whitespaces)
        guard try directory.isSetupCode(code) else {
            return try retry(InputError(field: "setupCode", description: HouseholdError.setupCodeWrong.description), .forbidden)
        }
        // The owner lands on the home page, where inviting the others starts; an invited member on the create form.
        return try await submit(context, landing: .home, retry: retry) { member in
            try await directory.createOwner(member, now: context.now)
        }
    }

    /// `GET /invite`.
    func inviteForm(_ context: RequestContext) async throws -> Response {
        guard try ownerSession(context) != nil else { return signInRedirect(next: SiteURL.invite.path) }
        return try invitePage(context, link: nil)
    }

    /// `POST /invite`: a single-use invitation link on the origin the owner is using, for a member or a guest.
    func createInvite(_ context: RequestContext) async throws -> Response {
        guard let owner = try ownerSession(context) else { return signInRedirect(next: SiteURL.invite.path) }
        guard let role = HouseholdRole(rawValue: context.form["role"] ?? "member"), role != .owner else {
            throw HTTPError(.badRequest, "Choose whether the invitation is for a member or a guest.")
        }
        let token = try directory.createInvite(by: owner.did, role: role, now: context.now)
        // Logged like every owner's action; the link's token never is.
        log.info("\(owner.handle) made an invitation for a \(role.rawValue)", fields: ["admin": "invitation"])
        return try invitePage(context, link: context.origin + SiteURL.join(token: token).path, role: role)
    }

    struct InviteModel: Encodable {
        var csrf: String
        var link: String?
        /// Whom the link just made is for: "member" or "guest".
        var role: String
        var isGuest: Bool
    }

    func invitePage(_ context: RequestContext, link: String?, role: HouseholdRole = .member) throws -> Response {
        let model = InviteModel(csrf: context.csrf.value, link: link, role: role.label.lowercased(), isGuest: role == .guest)
        return try pages.render("invite", title: "Invite someone", model: model, form: true, context: context)
    }

    /// `GET /join/<token>`.
    func joinForm(_ context: RequestContext) async throws -> Response {
        let token = try context.parameter("token")
        guard let role = try directory.inviteRole(token, now: context.now) else {
            throw HTTPError(.notFound, HouseholdError.inviteInvalid.description)
        }
        return try accountForm(context, heading: Self.joinHeading, intro: Self.joinIntro(role), action: SiteURL.join(token: token).path)
    }

    /// `POST /join/<token>`.
    func join(_ context: RequestContext) async throws -> Response {
        let token = try context.parameter("token")
        guard let role = try directory.inviteRole(token, now: context.now) else {
            throw HTTPError(.notFound, HouseholdError.inviteInvalid.description)
        }
        let retry = { (error: InputError, status: HTTPStatus) in
            try accountForm(
                context, heading: Self.joinHeading, intro: Self.joinIntro(role), action: SiteURL.join(token: token).path, error: error,
                status: status)
        }
        do {
            // A member lands on the create form; a guest, who never posts, on the stories.
            return try await submit(context, landing: role.posts ? .create : .home, retry: retry) { member in
                try await directory.acceptInvite(token, member: member, now: context.now)
            }
        } catch let error as HouseholdError where error == .inviteInvalid {
            throw HTTPError(.notFound, error.description)
        }
    }

    /// The shared half of the first-run and invitation forms: check the fields, make the account with `create`,
    /// and send the person on to sign in and then to `landing`; field problems come back as the form with the error.
    func submit(
        _ context: RequestContext, landing: SiteURL, retry: (InputError, HTTPStatus) throws -> Response,
        create: (NewMember) async throws -> String
    ) async throws -> Response {
        let form = context.form
        do {
            let name = try NewMember.checkName(form["name"] ?? "")
            try NewMember.checkPassword(form["password"] ?? "", confirmation: form["confirm"] ?? "")
            let handle = try await create(NewMember(name: name, displayName: form["displayName"] ?? "", password: form["password"] ?? ""))
            pageCache.removeAll()
            return .redirect(to: SiteURL.login.with([("next", landing.path), ("handle", handle)]))
        } catch let error as InputError {
            return try retry(error, .badRequest)
        } catch let error as HouseholdError where error == .nameTaken {
            return try retry(InputError(field: "name", description: error.description), .conflict)
        }
    }

    func ownerSession(_ context: RequestContext) throws -> BrowserSession? {
        guard let session = context.session else { return nil }
        guard try directory.isOwner(session.did) else { throw HTTPError(.forbidden, "Only the household’s owner can invite people.") }
        return session
    }

    func signInRedirect(next: String) -> Response {
        .redirect(to: SiteURL.login.with([("next", next)]), status: .found)
    }
}

extension HouseholdController {
    /// The routes this controller answers, one line per method and page.
    var routes: [Route] {
        [
            Route(method: .get, page: .welcome, access: .anyone, handler: welcome),
            Route(method: .post, page: .welcome, access: .anyone, bodyLimit: 8192, handler: createOwner),
            Route(method: .get, page: .invite, access: .signedIn, handler: inviteForm),
            Route(method: .post, page: .invite, access: .signedIn, bodyLimit: 4096, handler: createInvite),
            Route(method: .get, page: .join(token: .key), access: .anyone, handler: joinForm),
            Route(method: .post, page: .join(token: .key), access: .anyone, bodyLimit: 8192, handler: join),
        ]
    }
}
