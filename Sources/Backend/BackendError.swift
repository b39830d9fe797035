public import HTTPServer

/// Why the backend refused a query or a procedure, with the HTTP status and `{"error"}` string hatk answers with
/// in the same situation (hatk's handlers differ: an `InvalidRequestError` is a 400, a plain `Error` a 500, the core
/// write routes a 401).
public struct BackendError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The parameters or the input are wrong; the message says how.
        case invalidRequest
        /// No viewer, or a token that may not do this: sign in (again).
        case authenticationRequired
        /// A viewer who may not do this (not the owner, not their record).
        case forbidden
        case notFound
        /// The record already exists.
        case conflict
        /// A bound on stored state was reached (too many reports, mutes, preferences).
        case limitReached
    }

    public let kind: Kind
    public let status: HTTPStatus
    /// hatk's `error` string.
    public let error: String
    /// A sentence for people, where hatk's string is a code (`ScopeMissingError`).
    public let message: String?

    public init(_ kind: Kind, status: HTTPStatus, error: String, message: String? = nil) {
        self.kind = kind
        self.status = status
        self.error = error
        self.message = message
    }

    public var description: String { message ?? error }

    /// hatk's `InvalidRequestError(message)`: 400 with the message as the error.
    public static func invalidRequest(_ message: String) -> BackendError {
        BackendError(.invalidRequest, status: .badRequest, error: message)
    }

    /// hatk's core routes: 401 "Authentication required".
    public static let authenticationRequired = BackendError(.authenticationRequired, status: .unauthorized, error: "Authentication required")

    /// Grain's handlers that `throw new Error("Authentication required")`: hatk answers 500.
    public static let authenticationRequiredPlain = BackendError(
        .authenticationRequired, status: .internalServerError, error: "Authentication required")

    /// Grain's handlers that `throw new InvalidRequestError("Authentication required")`: hatk answers 400.
    public static let authenticationRequiredInvalid = BackendError(
        .authenticationRequired, status: .badRequest, error: "Authentication required")

    /// A plain `Error` in a Grain handler: hatk answers 500 with the message.
    public static func plain(_ message: String, kind: Kind = .invalidRequest) -> BackendError {
        BackendError(kind, status: .internalServerError, error: message)
    }

    /// A token whose scope does not cover the procedure: hatk's 401 `ScopeMissingError`.
    public static func scopeMissing(_ needed: String) -> BackendError {
        BackendError(
            .authenticationRequired, status: .unauthorized, error: "ScopeMissingError",
            message: "The access token was not granted \(needed); sign in again to grant it")
    }
}
