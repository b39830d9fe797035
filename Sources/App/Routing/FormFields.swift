import HTTPServer

/// A submitted form, URL-encoded or multipart, parsed once by `ContextBuilder` so that the CSRF check and the
/// handler read the same fields.
enum FormFields: Sendable {
    case empty
    case urlEncoded(URLEncodedForm)
    case multipart(MultipartForm)

    /// Parses the body by its Content-Type; a body of another type is an empty form.
    init(_ request: Request) throws {
        let type = (request.headers["Content-Type"] ?? "").lowercased()
        if type.hasPrefix("multipart/form-data") {
            self = .multipart(try request.multipartForm())
        } else if type.hasPrefix("application/x-www-form-urlencoded") || (type.isEmpty && !request.body.isEmpty) {
            self = .urlEncoded(try request.urlEncodedForm())
        } else {
            self = .empty
        }
    }

    /// The first value of a text field.
    subscript(name: String) -> String? {
        switch self {
        case .empty: nil
        case .urlEncoded(let form): form[name]
        case .multipart(let form): form.text(name)
        }
    }

    /// Every value of a repeated field (checkboxes).
    func values(_ name: String) -> [String] {
        switch self {
        case .empty: []
        case .urlEncoded(let form): form.values(name)
        case .multipart(let form): form.values(name)
        }
    }

    /// A file part of a multipart form.
    func file(_ name: String) -> MultipartForm.Part? {
        guard case .multipart(let form) = self else { return nil }
        return form[name]
    }
}
