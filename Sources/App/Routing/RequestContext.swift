import ATProto
import FrontState
import HTTPServer
import HatkClient
import Readers

/// Everything a front handler needs about one request, filled once by `ContextBuilder` before any handler
/// runs: the origin the browser used, the visitor's session, their CSRF token, the time, the reader that
/// answers for them, and (for a POST) the form, whose CSRF token has already been checked.
struct RequestContext: Sendable {
    var request: Request
    /// The validated origin the browser sent this request to, such as `http://192.168.1.20:8080`: links that
    /// must be absolute (OAuth client ids, invitation links) are built on it, never on a raw Host header.
    let origin: String
    /// The time this request is handled at; everything in it uses this one instant.
    let now: UTCTime
    /// The signed-in visitor, if the session cookie names a live session.
    let session: BrowserSession?
    /// The signed-in visitor's role in the household: nil without a session, and against a remote hatk (whose
    /// signed-in people all post).
    let role: HouseholdRole?
    /// The paired screen this browser is (a wall tablet with the household's screen credential), when it has no session.
    let screen: PairedScreen?
    /// Our cookies' names and attributes for this origin (`__Host-` and `Secure` over HTTPS).
    let cookies: CookieSettings
    /// The visitor's CSRF token for forms on the page; its cookie goes out with the page when new.
    let csrf: CSRFToken
    /// Reads stories as this visitor (their mutes, favourites and seen state come with the answers).
    let reader: any StoryReading
    /// The submitted form of a POST (empty for other methods).
    var form: FormFields = .empty
    /// Favourites and comments on the signed-in visitor's stories they have not looked at, for the header.
    var activityCount: Int?

    /// The signed-in visitor's DID.
    var viewer: String? { session?.did }

    /// Whom reads are made as (their mutes and blocks, their memories): the signed-in visitor, or the member who paired
    /// this screen.
    var readsAs: String? { session?.did ?? screen?.pairedBy }

    /// A query parameter.
    func query(_ name: String) -> String? { request.query(name) }

    /// A path parameter the route pattern captured.
    func parameter(_ name: String) throws -> String { try request.parameters.require(name) }

    /// Unix seconds of `now`.
    var unixNow: Int64 { now.unixSeconds }
}
