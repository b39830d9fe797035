import Crypto
import HTMLRendering
import HTTPServer

/// Renders a page template inside the layout, with a fresh CSP nonce and the asset URLs.
struct PageRenderer: Sendable {
    let templates: TemplateRenderer
    let assets: StaticFiles

    /// The fields every page's layout reads besides the page model itself.
    struct Layout: Encodable {
        var title: String
        var nonce: String
        var stylesheet: String
        var scripts: [String]
        var bodyClass: String
        /// The signed-in person's handle, for the header; nil shows a sign-in link.
        var signedInAs: String?
    }

    func render<Model: Encodable>(
        _ template: String, title: String, model: Model, status: HTTPStatus = .ok, scripts: [String] = [],
        bodyClass: String = "", signedInAs: String? = nil
    ) throws -> Response {
        let nonce = SecureRandom.token(byteCount: 16)
        let layout = Layout(
            title: title, nonce: nonce, stylesheet: assets.url(for: "css/app.css"),
            scripts: scripts.map { assets.url(for: $0) }, bodyClass: bodyClass, signedInAs: signedInAs)
        guard case .dictionary(var context) = try TemplateValue(encoding: layout) else {
            preconditionFailure("a struct always encodes to a dictionary")
        }
        context["page"] = try TemplateValue(encoding: model)
        let html = try templates.render(template, .dictionary(context), layout: "layout")
        var response = Response.html(html, status: status)
        response.headers["Content-Security-Policy"] = SecurityHeaders.contentSecurityPolicy(nonce: nonce)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
