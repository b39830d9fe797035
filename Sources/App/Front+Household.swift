import ATProto
import Backend
import Foundation
import HTTPServer

/// The first-run page that creates the household owner, and invitations the owner sends to members.
extension Front {
    struct AccountFormModel: Encodable {
        var csrf: String
        var heading: String
        var intro: String
        var action: String
        var name: String
        var displayName: String
        var domain: String
        var error: String?
        var errorField: String?
    }

    struct InviteModel: Encodable {
        var csrf: String
        var link: String?
    }

    func registerHouseholdRoutes(on router: inout Router) {
        router.on(.get, "/welcome") { [self] request in try self.welcome(request) }
        router.on(.post, "/welcome") { [self] request in try self.createOwner(request) }
        router.on(.get, "/invite") { [self] request in try self.inviteForm(request) }
        router.on(.post, "/invite") { [self] request in try self.createInvite(request) }
        router.on(.get, "/join/:token") { [self] request in try self.joinForm(request) }
        router.on(.post, "/join/:token") { [self] request in try self.join(request) }
    }

    func householdOrNotFound() throws -> HouseholdAdmin {
        guard let household else { throw HTTPError(.notFound, "Accounts are managed by the story server this site reads.") }
        return household
    }

    func accountForm(
        _ request: Request, heading: String, intro: String, action: String, error: HouseholdAdmin.InputError? = nil,
        status: HTTPStatus = .ok, name: String = "", displayName: String = ""
    ) throws -> Response {
        let domain = try householdOrNotFound().handleDomain
        return try formPage(request, "account-form", title: heading, status: status) { csrf in
            AccountFormModel(
                csrf: csrf, heading: heading, intro: intro, action: action, name: name, displayName: displayName,
                domain: domain, error: error?.description, errorField: error?.field)
        }
    }

    static let welcomeIntro = "Nobody has an account here yet. Create the first one: you become the household’s owner and can invite the others."

    func welcome(_ request: Request) throws -> Response {
        guard try householdOrNotFound().needsOwner else { return .redirect(to: SiteURL.home.path, status: .found) }
        return try accountForm(request, heading: "Welcome to your stories", intro: Self.welcomeIntro, action: "/welcome")
    }

    func createOwner(_ request: Request) throws -> Response {
        do {
            return try submitAccountForm(request, heading: "Welcome to your stories", intro: Self.welcomeIntro, action: "/welcome") {
                household, handle, now in try household.backend.store.createOwner(handle: handle, now: now)
            }
        } catch BackendStore.HouseholdError.alreadySetUp {
            throw HTTPError(.conflict, "This household already has an owner. Ask them for an invitation.")
        }
    }

    /// The shared half of the first-run and invitation forms: check the fields, make the account with
    /// `create`, give it a profile and password, and send the person on to sign in; field problems
    /// come back as the form with the error.
    func submitAccountForm(
        _ request: Request, heading: String, intro: String, action: String,
        create: (HouseholdAdmin, String, UTCTime) throws -> Account
    ) throws -> Response {
        let household = try householdOrNotFound()
        let form = try request.urlEncodedForm()
        try cookies.checkCSRF(request, formToken: form["csrf"], origin: try connected.origin)
        let (name, displayName, password) = (form["name"] ?? "", form["displayName"] ?? "", form["password"] ?? "")
        do {
            let checked = try HouseholdAdmin.checkName(name)
            try HouseholdAdmin.checkPassword(password, confirmation: form["confirm"] ?? "")
            let now = clock()
            let account = try create(household, household.handle(for: checked), now)
            try household.finish(account, displayName: displayName, password: password, now: now)
            pageCache.removeAll()
            try? connected.hatk.invalidateCache()
            return .redirect(to: SiteURL.login.with([("next", SiteURL.create.path), ("handle", account.handle)]))
        } catch let error as HouseholdAdmin.InputError {
            return try accountForm(
                request, heading: heading, intro: intro, action: action, error: error, status: .badRequest, name: name,
                displayName: displayName)
        } catch BackendStore.HouseholdError.nameTaken {
            return try accountForm(
                request, heading: heading, intro: intro, action: action,
                error: HouseholdAdmin.InputError(field: "name", description: "That name is already taken here."),
                status: .conflict, name: name, displayName: displayName)
        }
    }

    func ownerSession(_ request: Request) throws -> BrowserSession? {
        guard let session = try currentSession(request) else { return nil }
        guard try householdOrNotFound().backend.store.isOwner(session.did) else {
            throw HTTPError(.forbidden, "Only the household’s owner can invite people.")
        }
        return session
    }

    func inviteForm(_ request: Request, link: String? = nil) throws -> Response {
        guard try ownerSession(request) != nil else { return signInRedirect(next: "/invite") }
        return try formPage(request, "invite", title: "Invite someone") { csrf in InviteModel(csrf: csrf, link: link) }
    }

    func createInvite(_ request: Request) throws -> Response {
        let form = try request.urlEncodedForm()
        try cookies.checkCSRF(request, formToken: form["csrf"], origin: try connected.origin)
        guard let session = try ownerSession(request), let did = DID.parse(session.did) else {
            return signInRedirect(next: "/invite")
        }
        let token = try householdOrNotFound().backend.store.createInvite(by: did, now: clock())
        return try inviteForm(request, link: try connected.origin + "/join/" + token)
    }

    static let joinIntro = "You were invited to this household’s stories. Choose a name and a password."

    func joinForm(_ request: Request) throws -> Response {
        let token = try request.parameters.require("token")
        guard try householdOrNotFound().backend.store.isInviteUsable(token, now: clock()) else {
            throw HTTPError(.notFound, BackendStore.HouseholdError.inviteInvalid.description)
        }
        return try accountForm(request, heading: "Join the household", intro: Self.joinIntro, action: "/join/\(token)")
    }

    func join(_ request: Request) throws -> Response {
        let token = try request.parameters.require("token")
        do {
            return try submitAccountForm(request, heading: "Join the household", intro: Self.joinIntro, action: "/join/\(token)") {
                household, handle, now in try household.backend.store.acceptInvite(token, handle: handle, now: now)
            }
        } catch BackendStore.HouseholdError.inviteInvalid {
            throw HTTPError(.notFound, BackendStore.HouseholdError.inviteInvalid.description)
        }
    }
}
