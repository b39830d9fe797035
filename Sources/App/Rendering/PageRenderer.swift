import FrontState
public import HTMLRendering
public import HTTPServer

/// Renders a page template inside the layout, with the asset URLs, who is signed in, and
/// the visitor's CSRF cookie when the page (`form: true`, or any page of a signed-in visitor) gave them a new token.
public struct PageRenderer: Sendable {
    let templates: TemplateRenderer
    let assets: StaticFiles
    let policy: ContentPolicy

    /// - Parameter policy: the outside sources the CSP allows (a remote hatk's images and sign-in server).
    public init(templates: TemplateRenderer, assets: StaticFiles, policy: ContentPolicy.Sources = ContentPolicy.Sources()) {
        self.templates = templates
        self.assets = assets
        self.policy = ContentPolicy(policy)
    }

    /// A page outside the front's routes (the authorization server's sign-in page, the router's own error pages),
    /// in the same layout and with the same CSP; nil if the template cannot render.
    public func standalone<Model: Encodable>(_ template: String, title: String, model: Model, status: HTTPStatus) -> Response? {
        try? render(template, title: title, model: model, status: status, context: nil)
    }

    /// The error page for an error the router raised itself (an unknown path, a body too large).
    public func errorPage(_ error: HTTPError) -> Response {
        let model = ErrorPage.Model(
            status: error.status.code, heading: error.status.reasonPhrase,
            message: error.message.isEmpty ? "Something went wrong." : error.message)
        return standalone("error", title: error.status.reasonPhrase, model: model, status: error.status)
            ?? Response.text(error.message, status: error.status)
    }

    /// A `<meta>` element of the page's head: Open Graph (`property`) and Twitter card (`name`) tags.
    struct Meta: Encodable, Equatable {
        var property: String?
        var name: String?
        var content: String
    }

    /// The fields every page's layout reads besides the page model itself.
    struct Layout: Encodable {
        var title: String
        var stylesheet: String
        var scripts: [String]
        var bodyClass: String
        /// The signed-in person's handle, for the header; nil shows a sign-in link.
        var signedInAs: String?
        /// For the header's sign-out button.
        var csrf: String?
        /// Whether the header offers "New story": not to a guest, who never posts.
        var canPost: Bool
        /// Every fixed path, for the header, the forms and the links of every page.
        var site = SitePaths()
        /// The site's icon, by its fingerprinted name.
        var icon: String
        /// The signed-in person's own profile, from the header's menu.
        var profileHref: String?
        /// Whether the menu offers the owner's tools: members, invitations, reports.
        var isOwner: Bool
        /// Favourites and comments the signed-in person has not looked at yet; nil shows no count.
        var activityCount: Int?
        var meta: [Meta]
        /// A timed move to the next page for browsers without scripts (`seconds;url=…`): the kiosk's only.
        var refresh: String?
    }

    func render<Model: Encodable>(
        _ template: String, title: String, model: Model, status: HTTPStatus = .ok, scripts: [String] = [],
        bodyClass: String = "", frameAncestors: [String] = [], form: Bool = false, meta: [Meta] = [], refresh: String? = nil,
        context: RequestContext?
    ) throws -> Response {
        let layout = Layout(
            title: title, stylesheet: assets.url(for: "css/app.css"),
            scripts: scripts.map { assets.url(for: $0) }, bodyClass: bodyClass, signedInAs: context?.session?.handle,
            csrf: context?.session == nil ? nil : context?.csrf.value, canPost: context?.role?.posts ?? true,
            icon: assets.url(for: "icons/grain.svg"),
            profileHref: context?.session.map { SiteURL.profile(actor: $0.handle).path }, isOwner: context?.role == .owner,
            activityCount: context?.activityCount.flatMap { $0 > 0 ? $0 : nil }, meta: meta, refresh: refresh)
        guard case .dictionary(var values) = try TemplateValue(encoding: layout) else {
            preconditionFailure("a struct always encodes to a dictionary")
        }
        values["page"] = try TemplateValue(encoding: model)
        let html = try templates.render(template, .dictionary(values), layout: "layout")
        var response = Response.html(html, status: status)
        response.headers["Content-Security-Policy"] = policy.header(frameAncestors: frameAncestors)
        response.headers["Cache-Control"] = "no-store"
        if let origin = context?.origin, ContentPolicy.isTrustworthy(origin) {
            response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        }
        // Only signed-in pages carry forms that need the token: anonymous pages stay cacheable (no Set-Cookie).
        // A form page gives its visitor a CSRF cookie; anonymous pages without one stay cacheable (no Set-Cookie).
        if let context, context.session != nil || form { return context.csrf.attach(to: response) }
        return response
    }
}
