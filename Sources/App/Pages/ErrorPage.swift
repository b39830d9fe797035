import Logging

/// What a person sees when something goes wrong: what happened and what they can do.
enum ErrorPage {
    struct Model: Encodable, Equatable {
        var status: Int
        var heading: String
        var message: String
        /// Offered when trying again may help (the upstream was down or slow).
        var retryHref: String?
        var homeHref: String = SiteURL.home.path
        /// The request's id, as the log and the `X-Request-Id` header carry it, so a person can quote it.
        var requestID: String? = LogContext.requestID
    }
}
