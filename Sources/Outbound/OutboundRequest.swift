public import Foundation

/// One HTTP request to send with `OutboundHTTP`.
public struct OutboundRequest: Sendable {
    /// `GET`, `POST`, `HEAD`, `PUT`, `DELETE`, …
    public var method: String
    /// An `http` or `https` URL.
    public var url: URL
    /// Sent as given; a name or value with a line break or NUL makes `send` fail with `.invalidRequest`.
    public var headers: OutboundHeaders
    /// The request body; nil sends none (and no `Content-Length`).
    public var body: Body?
    /// The whole exchange, connecting included, must finish within this.
    public var timeout: Duration

    /// What a request sends: bytes in memory, or a file read as it is sent (a clip of megabytes is never copied
    /// into memory on its way out).
    public enum Body: Sendable, Equatable {
        case bytes(Data)
        /// The whole file at `path`, as it is when the request is sent; `send` fails with `.invalidRequest` when
        /// it cannot be opened.
        case file(path: String)
    }

    /// A request; by default a GET with no headers or body that may take 10 seconds.
    public init(
        method: String = "GET", url: URL, headers: OutboundHeaders = [:], body: Body? = nil,
        timeout: Duration = .seconds(10)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The answer to an `OutboundRequest`: whatever status came back, redirects included (they are never followed).
public struct OutboundResponse: Sendable {
    /// The HTTP status code, 3xx included.
    public var status: Int
    /// The final response's header fields (those of interim `100 Continue` answers are dropped).
    public var headers: OutboundHeaders
    /// The whole body, at most the client's `maximumBodySize`.
    public var body: Data

    /// A response as received (tests build their own).
    public init(status: Int, headers: OutboundHeaders, body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A 3xx answer with a `Location`: reported to the caller, never followed.
    public var isRedirect: Bool { (300..<400).contains(status) && headers["Location"] != nil }
}
