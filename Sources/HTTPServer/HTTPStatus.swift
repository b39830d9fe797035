/// An HTTP response status. Two statuses are equal when their codes are equal, whatever their reason phrases.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit status code.
    public let code: Int
    /// The reason phrase used in default error bodies; HTTP/1.1 clients ignore it.
    public var reasonPhrase: String

    /// A status with the standard reason phrase for `code` (or "Status <code>" for unknown codes).
    public init(code: Int) {
        self.code = code
        self.reasonPhrase = HTTPStatus.standardPhrases[code] ?? "Status \(code)"
    }

    /// "404 Not Found".
    public var description: String { "\(code) \(reasonPhrase)" }

    /// Compares codes only.
    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// 200
    public static let ok = HTTPStatus(code: 200)
    /// 201
    public static let created = HTTPStatus(code: 201)
    /// 204
    public static let noContent = HTTPStatus(code: 204)
    /// 206
    public static let partialContent = HTTPStatus(code: 206)
    /// 301
    public static let movedPermanently = HTTPStatus(code: 301)
    /// 302
    public static let found = HTTPStatus(code: 302)
    /// 303: the redirect to use after a form POST.
    public static let seeOther = HTTPStatus(code: 303)
    /// 304
    public static let notModified = HTTPStatus(code: 304)
    /// 307
    public static let temporaryRedirect = HTTPStatus(code: 307)
    /// 400
    /// 308: the same request again at another URL (a canonical origin), method and body kept.
    public static let permanentRedirect = HTTPStatus(code: 308)
    /// 400.
    public static let badRequest = HTTPStatus(code: 400)
    /// 401
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403
    public static let forbidden = HTTPStatus(code: 403)
    /// 404
    public static let notFound = HTTPStatus(code: 404)
    /// 405
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// 409
    public static let conflict = HTTPStatus(code: 409)
    /// 413
    public static let payloadTooLarge = HTTPStatus(code: 413)
    /// 415
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    /// 416
    public static let rangeNotSatisfiable = HTTPStatus(code: 416)
    /// 429
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// 421: the request reached a server that does not answer for its Host.
    public static let misdirectedRequest = HTTPStatus(code: 421)
    /// 422: understood but unusable (a photo that cannot be processed).
    public static let unprocessableContent = HTTPStatus(code: 422)
    /// 500
    public static let internalServerError = HTTPStatus(code: 500)
    /// 502
    public static let badGateway = HTTPStatus(code: 502)
    /// 503
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// 504
    public static let gatewayTimeout = HTTPStatus(code: 504)
    /// 507: no room to store what was sent (WebDAV's status, used by storage services).
    public static let insufficientStorage = HTTPStatus(code: 507)

    private static let standardPhrases: [Int: String] = [
        100: "Continue", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
        301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect",
        308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
        411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large", 414: "URI Too Long",
        415: "Unsupported Media Type", 416: "Range Not Satisfiable", 421: "Misdirected Request", 422: "Unprocessable Content",
        428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 507: "Insufficient Storage",
    ]
}
