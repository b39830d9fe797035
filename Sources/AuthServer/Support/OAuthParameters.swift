import Foundation
import HTTPServer

/// The parameters of an OAuth request body, from a form or (as hatk also accepts) a JSON object.
///
/// RFC 6749 §3.1 forbids repeating a parameter, so a repeated form field is refused rather than resolved.
struct OAuthParameters: Sendable {
    private var values: [String: String]

    init(_ values: [String: String]) {
        self.values = values
    }

    /// Parses the body by its content type.
    init(request: Request) throws(OAuthErrorResponse) {
        let type = (request.headers["Content-Type"] ?? "").lowercased()
        // OAuth routes keep their small bodies in memory.
        let body = request.body.inMemory ?? []
        if type.hasPrefix("application/json") {
            self.init(values: try Self.json(body))
        } else if type.hasPrefix("application/x-www-form-urlencoded") {
            guard let form = try? URLEncodedForm(body) else {
                throw .invalidRequest("Malformed form body")
            }
            var values: [String: String] = [:]
            for (name, value) in form.fields {
                guard values[name] == nil else { throw .invalidRequest("Parameter \(name) is repeated") }
                values[name] = value
            }
            self.init(values)
        } else {
            throw .invalidRequest("Expected application/x-www-form-urlencoded or application/json")
        }
    }

    private init(values: [String: String]) {
        self.values = values
    }

    /// The value of `name`, nil when absent or empty (an empty parameter counts as omitted, RFC 6749 §3.1).
    subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// The value of `name`, or `invalid_request` naming it.
    func require(_ name: String) throws(OAuthErrorResponse) -> String {
        guard let value = self[name] else { throw .invalidRequest("Missing \(name)") }
        return value
    }

    /// Strings, numbers and booleans of a flat JSON object, as text; nested values are refused.
    private static func json(_ body: [UInt8]) throws(OAuthErrorResponse) -> [String: String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw .invalidRequest("Malformed JSON body")
        }
        var values: [String: String] = [:]
        for (name, value) in object {
            switch value {
            case let string as String: values[name] = string
            case let number as NSNumber: values[name] = number.stringValue
            case is NSNull: continue
            default: throw .invalidRequest("Parameter \(name) must be a string")
            }
        }
        return values
    }
}
