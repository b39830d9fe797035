import Foundation
import HTTPServer
import HatkClient
import Logging
import Readers

/// How the front tells a person something went wrong: an HTML page on pages, `{"error", "message"}` for the
/// viewer scripts. One place, so every route of a group answers the same way.
struct FrontErrors: Sendable {
    let pages: PageRenderer

    /// The error as its route group shows it, with the error's own headers (Retry-After, Allow).
    func render(_ error: HTTPError, group: Route.Group, context: RequestContext?) -> Response {
        var response: Response
        switch group {
        case .api:
            response = json(error.status.reasonPhrase.replacingOccurrences(of: " ", with: ""), error.message, status: error.status)
        case .pages:
            response = page(
                status: error.status, heading: error.status.reasonPhrase,
                message: error.message.isEmpty ? Self.sentence(for: error.status) : error.message, context: context)
        }
        for (name, value) in error.headers { response.headers[name] = value }
        return response
    }

    /// What the server itself refusing a request means, in words a person can act on (the transport raises these
    /// before any handler runs, without a message of its own).
    static func sentence(for status: HTTPStatus) -> String {
        switch status.code {
        case 413: "That is more than this page accepts. Photos of up to 30 MB can be posted; choose a smaller file."
        case 507:
            "The server has run out of storage space, so what you sent was not saved. "
                + "Whoever runs this server needs to free some space; then go back and try again."
        case 503: "The server is busy right now. Try again in a few seconds."
        case 404: "There is nothing at this address."
        default: "Something went wrong."
        }
    }

    /// A "not found" page with a sentence saying what is missing.
    func notFound(_ message: String, context: RequestContext) -> Response {
        page(status: .notFound, heading: "Not found", message: message, context: context)
    }

    func page(status: HTTPStatus, heading: String, message: String, retryHref: String? = nil, context: RequestContext?) -> Response {
        let model = ErrorPage.Model(status: status.code, heading: heading, message: message, retryHref: retryHref)
        return (try? pages.render("error", title: heading, model: model, status: status, context: context))
            ?? Response.text(message, status: status)
    }

    /// The viewer scripts' error shape.
    func json(_ error: String, _ message: String, status: HTTPStatus) -> Response {
        var response = Response.json(["error": error, "message": message], status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}

/// Turns a failing upstream (the hatk server down, slow or answering nonsense: a read's ``ReadError``, a write's
/// ``HatkError``) into a page offering a retry, or the scripts' JSON, for every front route.
struct UpstreamFailureMiddleware: ContextMiddleware {
    let errors: FrontErrors
    let group: Route.Group

    func handle(_ context: RequestContext, next: @escaping ContextHandler) async throws -> Response {
        do {
            return try await next(context)
        } catch let error as ReadError {
            log.warning("upstream error: \(error)")
            return failure(timedOut: error.kind == .timeout, context)
        } catch let error as HatkError {
            log.warning("upstream error: \(error)")
            return failure(timedOut: error.kind == .timeout, context)
        }
    }

    /// The retry page, or the scripts' JSON: 504 when the upstream was too slow, 502 for anything else.
    func failure(timedOut: Bool, _ context: RequestContext) -> Response {
        let status: HTTPStatus = timedOut ? .gatewayTimeout : .badGateway
        if group == .api {
            return errors.json("UpstreamFailure", "The story server did not answer properly; try again.", status: status)
        }
        return errors.page(
            status: status, heading: "Stories are not available right now",
            message: timedOut
                ? "The story server is taking too long to answer. It may be busy; try again in a moment."
                : "The story server could not be reached or sent something unexpected. Try again in a moment.",
            retryHref: SiteURL.localPath(context.request.pathAndQuery), context: context)
    }
}
