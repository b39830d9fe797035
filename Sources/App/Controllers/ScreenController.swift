import ATProto
import Foundation
import FrontState
import HTTPServer
import Logging

/// Paired screens: a member makes a one-time pairing link on the kiosk settings page (shown as text and as a QR
/// code); opened on the tablet, it gives that browser a screen credential that reads the kiosk and nothing else.
/// Only the embedded household has screens.
struct ScreenController: Sendable {
    let pages: PageRenderer
    let passes: any HouseholdPasses
    /// Pairing links one member may make per minute.
    let limiter: any RateLimiting

    /// A screen's cookie lasts as long as browsers keep one (400 days); the owner's Remove ends it sooner.
    static let credentialLifetime = 400 * 86400
    /// The longest name a screen may have.
    static let maxName = 40
    /// What an unknown, used or expired pairing link answers: the same for each, so it tells nothing.
    static let linkGone =
        "This pairing link does not work: it was used, it is older than ten minutes, or it never existed. Make a new one on the kiosk settings page."

    /// `POST /kiosk/pair`: a pairing link for a screen with the settings' options, shown with the settings page.
    func createPairing(_ context: RequestContext) async throws -> Response {
        guard let session = context.session else {
            return .redirect(to: SiteURL.login.with([("next", SiteURL.kioskSettings.path)]), status: .seeOther)
        }
        if case .limited(let wait) = try limiter.admit("pair " + session.did, now: context.unixNow) {
            throw HTTPError(
                .tooManyRequests, "You made many pairing links just now. Wait a minute and try again.", headers: ["Retry-After": "\(wait)"])
        }
        // The settings travel as one field, the kiosk address's query, and are read back through the kiosk's own parser.
        let settings = Request(method: .get, path: SiteURL.kiosk.path, query: context.form["kiosk"] ?? "")
        let options = KioskOptions(query: settings.query)
        let name = (context.form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Self.maxName).contains(name.count) else {
            throw HTTPError(.badRequest, "Give the screen a name of 1 to \(Self.maxName) characters, such as Kitchen.")
        }
        let token = try passes.createPairing(
            by: session.did, name: name, kioskQuery: options.queryString, memories: options.memories, now: context.now)
        log.info("\(session.handle) made a pairing link", fields: ["admin": "screen"])
        var model = KioskSettingsPage.model(options, address: StoryPages.kioskAddress(options, origin: context.origin), csrf: context.csrf.value)
        model.pairing = KioskSettingsPage.Pairing(
            name: name, link: context.origin + SiteURL.screenPairing(token: token).path, qrHref: SiteURL.screenPairingQR(token: token).path)
        return try pages.render("kiosk-settings", title: "Kiosk settings", model: model, form: true, context: context)
    }

    struct ConfirmModel: Encodable {
        var csrf: String
        var name: String
        var action: String
    }

    /// `GET /kiosk/pair/<token>`, on the tablet: what pairing does, and the button that does it (a link alone pairs
    /// nothing, so a link preview or a prefetch cannot use it up).
    func confirm(_ context: RequestContext) async throws -> Response {
        let token = try context.parameter("token")
        guard let screen = try passes.pendingPairing(token, now: context.now) else { throw HTTPError(.notFound, Self.linkGone) }
        let model = ConfirmModel(csrf: context.csrf.value, name: screen.name, action: SiteURL.screenPairing(token: token).path)
        var response = try pages.render("screen-pair", title: "Pair this screen", model: model, form: true, context: context)
        // The link's token goes to no other site in a Referer; `no-referrer` would also make the form's Origin `null`,
        // which the CSRF check refuses.
        response.headers["Referrer-Policy"] = "same-origin"
        return response
    }

    /// `POST /kiosk/pair/<token>`: the browser becomes the screen and goes to its kiosk.
    func pair(_ context: RequestContext) async throws -> Response {
        let token = try context.parameter("token")
        guard let (credential, screen) = try passes.completePairing(token, now: context.now) else { throw HTTPError(.notFound, Self.linkGone) }
        log.info("a screen was paired", fields: ["admin": "screen"])
        var response = Response.redirect(to: SiteURL.kiosk.path + (screen.kioskQuery.isEmpty ? "" : "?" + screen.kioskQuery), status: .seeOther)
        response.headers.add("Set-Cookie", context.cookies.setCookie(context.cookies.screenName, credential, maxAge: Self.credentialLifetime))
        return response
    }

    /// `GET /kiosk/pair/<token>/qr.svg`: the pairing link as a QR code, while it can be used.
    func qr(_ context: RequestContext) async throws -> Response {
        let token = try context.parameter("token")
        guard try passes.pendingPairing(token, now: context.now) != nil else { return StoryPages.notFoundImage }
        var response = StoryPages.svg(context.origin + SiteURL.screenPairing(token: token).path, title: "Pair a screen")
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}

extension ScreenController {
    /// The routes this controller answers, one line per method and page.
    var routes: [Route] {
        [
            Route(method: .post, page: .screenPairings, access: .posters, bodyLimit: 8192, handler: createPairing),
            Route(method: .get, page: .screenPairing(token: .key), access: .anyone, handler: confirm),
            Route(method: .post, page: .screenPairing(token: .key), access: .anyone, bodyLimit: 4096, handler: pair),
            Route(method: .get, page: .screenPairingQR(token: .key), access: .posters, handler: qr),
        ]
    }
}
