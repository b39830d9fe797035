/// The client redirects of the sign-in form.
enum RedirectURL {
    /// `url` with `parameters` appended to its query, values percent-encoded.
    static func appending(_ parameters: [(String, String)], to url: String) -> String {
        let query = parameters.map { "\($0.0)=\(percentEncoded($0.1))" }.joined(separator: "&")
        return url + (url.contains("?") ? "&" : "?") + query
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func percentEncoded(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            let unreserved =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
