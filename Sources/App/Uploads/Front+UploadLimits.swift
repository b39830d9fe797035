import HTTPServer
import HatkClient

/// The create form's answers when an upload cannot go ahead for reasons of capacity rather than of the photo:
/// this client is over its rate, or the story server is out of space or busy. Each is the form again with a
/// sentence saying what happened and what to do, so nothing the person chose is lost in an error page.
extension Front {
    /// Counts this upload against its client address; nil when it may go ahead, else the form with 429 and
    /// Retry-After.
    func uploadRateLimited(_ request: Request) async throws -> Response? {
        let address = request.clientAddress ?? "unknown"
        guard case .limited(let wait) = uploads.limiter.admit(address, now: unixNow) else { return nil }
        var response = try await createForm(
            request,
            error: "You have posted many photos in the last minute. Wait \(wait) second\(wait == 1 ? "" : "s"), then try again.",
            status: .tooManyRequests)
        response.headers["Retry-After"] = String(wait)
        return response
    }

    /// The form with what the story server's refusal of an upload means; nil for failures that are not about
    /// capacity (the caller rethrows those and the visitor gets the retry page).
    func uploadRefused(_ error: HatkError, _ request: Request) async throws -> Response? {
        guard case .http(let status, _) = error.kind else { return nil }
        switch status {
        case 507:
            return try await createForm(
                request,
                error: "The server has run out of storage space, so your photo was not saved. "
                    + "Whoever runs this server needs to free some space; then try again.",
                status: .insufficientStorage)
        case 503:
            var response = try await createForm(
                request, error: "The story server is busy right now. Try again in a few seconds.", status: .serviceUnavailable)
            response.headers["Retry-After"] = "5"
            return response
        default:
            return nil
        }
    }
}
