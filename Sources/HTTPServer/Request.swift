/// An HTTP request with its whole body collected (bounded by the route's body limit).
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path, without the query (an encoded `%2F` becomes a separator like `/`).
    public var path: String
    /// The raw query string after `?`, or `""` if there is none.
    public var query: String
    /// The request header fields in arrival order.
    public var headers: HTTPHeaders
    /// The request body.
    public var body: [UInt8]
    /// The client's numeric IP address ("127.0.0.1", "::1"), if known.
    public var remoteAddress: String?
    /// Path parameters, filled in by the router from the matched pattern.
    public var parameters: Parameters

    /// - Parameters:
    ///   - method: The request method.
    ///   - path: The already percent-decoded path.
    ///   - query: The raw query string, without `?`.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    ///   - remoteAddress: The client's numeric IP address.
    public init(
        method: HTTPMethod,
        path: String,
        query: String = "",
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.parameters = Parameters()
    }
}

extension Request {
    /// Builds a request from a raw request target such as `/a%20b?x=1`.
    init(method: HTTPMethod, target: String, headers: HTTPHeaders, body: [UInt8], remoteAddress: String?) {
        let (path, query) = Self.split(target: target)
        self.init(method: method, path: path, query: query, headers: headers, body: body, remoteAddress: remoteAddress)
    }

    /// The decoded path and raw query of a request target; the absolute form (`http://host/a?x=1`) is reduced to
    /// its path, and a fragment is dropped.
    static func split(target: String) -> (path: String, query: String) {
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
