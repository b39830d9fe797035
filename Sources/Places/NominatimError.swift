/// Why a Nominatim lookup failed. Messages never contain the coordinates or the request URL, so they are safe
/// to log.
public struct NominatimError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad cause.
    public enum Kind: Sendable, Equatable {
        /// Latitude or longitude is not finite or out of range.
        case invalidCoordinates
        /// The server answered with a status other than 200 (redirects included: they are not followed).
        case status(Int)
        /// No complete answer within the configured timeout.
        case timeout
        /// The connection failed.
        case transport
        /// The body was not the JSON object Nominatim sends, or was too large.
        case malformedResponse
    }

    /// The broad cause.
    public let kind: Kind
    /// A message for logs.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
