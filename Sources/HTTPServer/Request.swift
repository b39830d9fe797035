import Foundation

/// What is known of a request once its head has arrived: everything but the body. `Request` and `RequestHead`
/// share every helper built on it (cookies, query items, the client address, forwarded headers).
public protocol RequestHeadFields: Sendable {
    /// The request method.
    var method: HTTPMethod { get }
    /// The percent-decoded path, without the query.
    var path: String { get }
    /// The raw query string after `?`, or `""`.
    var query: String { get }
    /// The request header fields in arrival order.
    var headers: HTTPHeaders { get }
    /// The socket peer's numeric IP address ("127.0.0.1", "::1"), if known.
    var remoteAddress: String? { get }
    /// The proxies whose forwarding headers this request's peer may set (the server's configuration).
    var trustedProxies: TrustedProxies { get }
}

/// A request's head without its body, as a route's admission check sees it before any body byte is read.
public struct RequestHead: RequestHeadFields {
    public var method: HTTPMethod
    public var path: String
    public var query: String
    public var headers: HTTPHeaders
    public var remoteAddress: String?
    public var trustedProxies: TrustedProxies

    /// - Parameters: as for `Request`.
    public init(
        method: HTTPMethod, path: String, query: String = "", headers: HTTPHeaders = [:], remoteAddress: String? = nil,
        trustedProxies: TrustedProxies = .loopback
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.trustedProxies = trustedProxies
    }
}

/// An HTTP request with its whole body received (bounded by the route's body limit), in memory or on disk as the
/// route chose.
public struct Request: RequestHeadFields {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path, without the query (an encoded `%2F` becomes a separator like `/`).
    public var path: String
    /// The raw query string after `?`, or `""` if there is none.
    public var query: String
    /// The request header fields in arrival order.
    public var headers: HTTPHeaders
    /// The request body: bytes, or a temporary file for routes registered with `.temporaryFile` storage. The file
    /// exists until the handler's response is returned; `BodyFile.persist(to:)` keeps it.
    public var body: BodyContent
    /// The socket peer's numeric IP address ("127.0.0.1", "::1"), if known. Behind a proxy, `clientAddress` is the
    /// client.
    public var remoteAddress: String?
    /// The proxies whose forwarding headers are believed; the server fills in its configured set.
    public var trustedProxies: TrustedProxies
    /// Path parameters, filled in by the router from the matched pattern.
    public var parameters: Parameters
    /// The request's id, as its `X-Request-Id` response header and log lines carry it; set by the server (empty in
    /// requests made by hand).
    public var id: String = ""

    /// - Parameters:
    ///   - method: The request method.
    ///   - path: The already percent-decoded path.
    ///   - query: The raw query string, without `?`.
    ///   - headers: The header fields.
    ///   - body: The body.
    ///   - remoteAddress: The socket peer's numeric IP address.
    ///   - trustedProxies: The proxies whose forwarding headers are believed.
    public init(
        method: HTTPMethod,
        path: String,
        query: String = "",
        headers: HTTPHeaders = [:],
        body: BodyContent = .bytes([]),
        remoteAddress: String? = nil,
        trustedProxies: TrustedProxies = .loopback
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.trustedProxies = trustedProxies
        self.parameters = Parameters()
    }

    /// A request with bytes in memory as its body.
    public init(
        method: HTTPMethod, path: String, query: String = "", headers: HTTPHeaders = [:], body: [UInt8],
        remoteAddress: String? = nil, trustedProxies: TrustedProxies = .loopback
    ) {
        self.init(
            method: method, path: path, query: query, headers: headers, body: .bytes(body), remoteAddress: remoteAddress,
            trustedProxies: trustedProxies)
    }

    /// This request's head, without the body.
    public var head: RequestHead {
        RequestHead(
            method: method, path: path, query: query, headers: headers, remoteAddress: remoteAddress,
            trustedProxies: trustedProxies)
    }
}

extension Request {
    /// A request without a body from its head (for error responses rendered before the body was read).
    init(_ head: RequestHead) {
        self.init(
            method: head.method, path: head.path, query: head.query, headers: head.headers, body: .bytes([]),
            remoteAddress: head.remoteAddress, trustedProxies: head.trustedProxies)
    }

    /// Builds a request from a raw request target such as `/a%20b?x=1`.
    init(
        method: HTTPMethod, target: String, headers: HTTPHeaders, body: BodyContent, remoteAddress: String?,
        trustedProxies: TrustedProxies
    ) {
        let (path, query) = Self.split(target: target)
        self.init(
            method: method, path: path, query: query, headers: headers, body: body, remoteAddress: remoteAddress,
            trustedProxies: trustedProxies)
    }

    /// The decoded path and raw query of a request target; the absolute form (`http://host/a?x=1`) is reduced to
    /// its path, and a fragment is dropped.
    static func split(target: String) -> (path: String, query: String) {
        // A plain path, the usual case, is its own path: no copy (a cached page's fast path splits every target).
        if target.utf8.first == UInt8(ascii: "/"),
            !target.utf8.contains(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "%") })
        {
            return (target, "")
        }
        // Delimiters are found by byte: a combining mark after `?` or `#` would otherwise merge with it into
        // one Character and hide it (found by the FuzzURLEncodedForm target).
        var target = Substring(target)
        if let fragment = target.utf8.firstIndex(of: UInt8(ascii: "#")) {
            target = target[..<fragment]
        }
        var rawPath = target
        var query = Substring("")
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            rawPath = target[..<mark]
            query = target[target.utf8.index(after: mark)...]
        }
        if !rawPath.hasPrefix("/"), let scheme = rawPath.range(of: "://") {
            let afterAuthority = rawPath[scheme.upperBound...].firstIndex(of: "/") ?? rawPath.endIndex
            rawPath = rawPath[afterAuthority...]
        }
        if rawPath.isEmpty {
            rawPath = "/"
        }
        return (PercentDecoding.decode(rawPath, plusAsSpace: false), String(query))
    }
}
