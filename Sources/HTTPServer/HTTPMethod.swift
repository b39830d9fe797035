/// An HTTP request method such as `GET` or `POST`. Methods are case-sensitive, as RFC 9110 specifies.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as it appears on the request line.
    public let rawValue: String

    /// Wraps a method token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a method token.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The method token.
    public var description: String { rawValue }

    /// `GET`
    public static let get = HTTPMethod("GET")
    /// `HEAD`: answered by the `GET` route when no `HEAD` route exists.
    public static let head = HTTPMethod("HEAD")
    /// `POST`
    public static let post = HTTPMethod("POST")
    /// `PUT`
    public static let put = HTTPMethod("PUT")
    /// `DELETE`
    public static let delete = HTTPMethod("DELETE")
    /// `OPTIONS`
    public static let options = HTTPMethod("OPTIONS")
    /// `PATCH`
    public static let patch = HTTPMethod("PATCH")
}
