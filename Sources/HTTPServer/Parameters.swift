/// Path parameters captured by the router (`:name` and `*name` segments), already percent-decoded.
public struct Parameters: Sendable {
    private var values: [String: String] = [:]

    /// No parameters.
    public init() {}

    /// The captured value of `name`, or `nil` if the pattern has no such parameter.
    public subscript(name: String) -> String? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// The captured value of `name`.
    /// - Throws: `HTTPError` 400 if it is missing.
    public func require(_ name: String) throws(HTTPError) -> String {
        guard let value = values[name] else {
            throw HTTPError(.badRequest, "Missing parameter \(name)")
        }
        return value
    }

    /// The captured value of `name` converted to `T`, for example `require("page", as: Int.self)`.
    /// - Throws: `HTTPError` 400 if it is missing or does not parse as `T`.
    public func require<T: LosslessStringConvertible & Sendable>(
        _ name: String,
        as type: T.Type
    ) throws(HTTPError) -> T {
        let text = try require(name)
        guard let value = T(text) else {
            throw HTTPError(.badRequest, "Invalid parameter \(name)")
        }
        return value
    }
}
