import ATProto
import FrontState
import HTTPServer
import HatkClient
import WebAddresses

/// Fills a `RequestContext` once per request, before any front handler runs: decides the origin (refusing a
/// Host that is not ours, sending a non-canonical one to the canonical origin), looks up the session, picks
/// the reader, and parses a POST's form.
struct ContextBuilder: Sendable {
    let origins: @Sendable (Request) -> OriginDecision
    let sessions: any SessionStoring
    let stories: any StorySource
    let credentials: SessionCredentials
    /// The household's roles and paired screens; nil against a remote hatk.
    let household: (any HouseholdDirectory)?
    let clock: @Sendable () -> UTCTime

    enum Outcome {
        case ready(RequestContext)
        /// Answered before any handler: a redirect to the canonical origin, or a refusal.
        case answered(Response)
    }

    func context(for request: Request, route: Route) throws -> Outcome {
        let origin: String
        if route.anyHost {
            origin = "http://localhost"
        } else {
            switch origins(request) {
            case .own(let own): origin = own.description
            case .notCanonical(_, let canonical):
                // Links, cookies and sign-in all live on one origin; anything else is sent there.
                guard request.method == .get || request.method == .head else {
                    throw HTTPError(.misdirectedRequest, "This site lives at \(canonical). Open it there and try again.")
                }
                return .answered(
                    .redirect(to: canonical.description + (SiteURL.localPath(request.pathAndQuery) ?? "/"), status: .permanentRedirect))
            case .refused:
                throw HTTPError(
                    .misdirectedRequest,
                    "This server does not answer to that name. Use its address, or the name its owner set up.")
            }
        }
        let cookies = CookieSettings(secure: origin.hasPrefix("https://"))
        let now = clock()
        let session = try request.cookie(cookies.sessionName).flatMap { id in
            id.isEmpty ? nil : try sessions.session(id: id, now: now.unixSeconds)
        }
        let role = try session.flatMap { try household?.role(of: $0.did) }
        // A screen's credential counts only without a session: a member's own browser is the member.
        let screen = try session == nil ? screen(request, cookies, now) : nil
        let viewer: StoryViewer?
        if let session {
            viewer = DID.parse(session.did).map { did in
                StoryViewer(did: did) { [credentials] in try await credentials.credentials(for: session, now: now) }
            }
        } else {
            // Screens exist only in the embedded household, whose in-process reader never asks for credentials.
            viewer = screen.flatMap { DID.parse($0.pairedBy) }.map { did in
                StoryViewer(did: did) { throw HTTPError(.unauthorized, "A screen reads the kiosk only.") }
            }
        }
        var context = RequestContext(
            request: request, origin: origin, now: now, session: session, role: role, screen: screen, cookies: cookies,
            csrf: cookies.csrfToken(for: request), reader: stories.reader(for: viewer))
        if request.method == .post {
            do { context.form = try FormFields(request) } catch {
                throw HTTPError(.badRequest, "The form could not be read. Go back, reload the page and try again.")
            }
        }
        return .ready(context)
    }

    /// The paired screen the request's screen cookie names, if it is still paired.
    func screen(_ request: Request, _ cookies: CookieSettings, _ now: UTCTime) throws -> PairedScreen? {
        guard let household, let credential = Self.screenCredential(request.cookie(cookies.screenName)) else { return nil }
        return try household.screen(credential: credential, now: now)
    }

    /// A screen cookie's value worth looking up: not empty, and no longer than any credential we make.
    static func screenCredential(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 128 else { return nil }
        return value
    }
}
