public import Foundation

/// A web origin, `scheme://host[:port]`, in the form browsers serialise it: host lowercased, an IPv6 address in
/// brackets, the scheme's default port left out.
///
/// The one origin type: the server's CSRF and host checks, the authorization server's issuers and client origins,
/// and the outbound address policy's allowances. `https://a.example` and `https://a.example:443` are one origin
/// (equal, one hash, one text); ``effectivePort`` gives the port a connection uses, as libcurl fills it in.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host: a lowercase name, a dotted-quad IPv4 address, or an IPv6 address (without brackets).
    public let host: String
    /// The port, or nil for the scheme's default (80 for http, 443 for https).
    public let port: Int?
    /// The host as an address, when it is one.
    public let address: IPAddress?

    /// An origin from a scheme and a `host[:port]` authority (a Host header's value); nil if either is malformed.
    public init?(scheme: String, authority: String) {
        guard case .success(let parsed) = Authority.parse(authority) else { return nil }
        self.init(scheme: scheme, parsed)
    }

    /// An origin from a scheme and an authority already parsed; nil for a scheme other than http and https.
    public init?(scheme: String, _ authority: Authority) {
        let scheme = scheme.lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        self.scheme = scheme
        host = authority.host
        address = authority.address
        port = authority.port == Self.defaultPort(scheme) ? nil : authority.port
    }

    /// Parses an origin (`https://stories.example`) or takes the origin of an absolute URL
    /// (`https://Stories.Example:443/oauth/client-metadata.json` is `https://stories.example`). Nil for other
    /// schemes, user info, a malformed host or port, or a path, query or fragment that is no valid URL text (a
    /// space, a control or non-ASCII byte, a character RFC 3986 never allows, a bad `%` escape).
    public init?(_ text: String) {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = String(text[..<separator.lowerBound])
        let rest = text[separator.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard Self.isURLTail(rest[end...].utf8) else { return nil }
        self.init(scheme: scheme, authority: String(rest[..<end]))
    }

    /// The origin of an absolute `http` or `https` URL.
    public init?(_ url: URL) {
        self.init(url.absoluteString)
    }

    /// The port a connection uses: the explicit one, or the scheme's default (443 for https, 80 for http).
    public var effectivePort: Int { port ?? Self.defaultPort(scheme) }

    /// The host as a URL writes it: an IPv6 address in brackets (`[::1]`), anything else as ``host``.
    public var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    private static func defaultPort(_ scheme: String) -> Int { scheme == "https" ? 443 : 80 }

    /// `https://stories.example`, `http://192.168.1.20:8080`, `http://[fe80::1]:8080`.
    public var description: String {
        "\(scheme)://\(urlHost)\(port.map { ":\($0)" } ?? "")"
    }

    /// An absolute URL on this origin for a decoded path and a raw query, as a redirect's `Location`: the path is
    /// percent-encoded again wherever it holds anything but path characters.
    public func url(path: String, query: String = "") -> String {
        var encoded = ""
        for byte in path.utf8 {
            if Self.isPathByte(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        if !encoded.hasPrefix("/") { encoded = "/" + encoded }
        return description + encoded + (query.isEmpty ? "" : "?" + query)
    }

    /// Whether what follows an authority is a path, query and fragment RFC 3986 allows: `pchar`, `/` and `?`, one
    /// `#`, and `%` only before two hex digits.
    private static func isURLTail(_ bytes: Substring.UTF8View) -> Bool {
        var fragment = false
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let digits = bytes[bytes.index(after: index)...].prefix(2)
                guard digits.count == 2, digits.allSatisfy(isHexDigit) else { return false }
                index = bytes.index(index, offsetBy: 3)
                continue
            }
            if byte == UInt8(ascii: "#") {
                guard !fragment else { return false }
                fragment = true
            } else if !isPathByte(byte), byte != UInt8(ascii: "?") {
                return false
            }
            index = bytes.index(after: index)
        }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// RFC 3986 `pchar` and `/`: unreserved, sub-delims, `:` and `@`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=:@/".utf8.contains(byte)
        }
    }
}

/// A `host[:port]` authority as a browser sends it in `Host`, checked: a DNS-style name (letters, digits, `-`, `_`
/// in dot-separated labels), a dotted-quad IPv4 address, or an IPv6 address in brackets, then an optional port.
public struct Authority: Sendable, Equatable {
    /// Lowercase name, dotted quad, or canonical IPv6 text without brackets.
    public let host: String
    /// The host as an address, when it is one.
    public let address: IPAddress?
    /// The port as written, if any.
    public let port: Int?

    /// Why an authority was refused.
    public enum Failure: Error, Equatable {
        case empty
        case malformedHost
        case zoneIdentifier
        case malformedPort
    }

    /// Parses `host[:port]`; a zone identifier is refused with its own reason, for the refusal to name it.
    public static func parse(_ text: String) -> Result<Authority, Failure> {
        guard !text.isEmpty else { return .failure(.empty) }
        guard text.utf8.count <= 300, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return .failure(.malformedHost) }
        let hostPart: Substring
        let portPart: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .failure(.malformedHost) }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return .failure(.malformedHost) }
            portPart = after.isEmpty ? nil : after.dropFirst()
            // A zone (`fe80::1%25eth0`, RFC 6874) names an interface of the client's machine: browsers do not send
            // one, and it can never name this server.
            guard !hostPart.contains("%") else { return .failure(.zoneIdentifier) }
            guard hostPart.contains(":"), let address = IPAddress(hostPart) else {
                return .failure(.malformedHost)
            }
            return port(portPart).map { Authority(host: address.ipv6Text, address: address, port: $0) }
        }
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count <= 2 else { return .failure(.malformedHost) }
        hostPart = pieces[0]
        portPart = pieces.count == 2 ? pieces[1] : nil
        guard let host = name(hostPart) else { return .failure(.malformedHost) }
        return port(portPart).map { Authority(host: host.text, address: host.address, port: $0) }
    }

    private static func port(_ text: Substring?) -> Result<Int?, Failure> {
        guard let text else { return .success(nil) }
        guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), text.first != "0",
            let value = Int(text), value <= 65535
        else { return .failure(.malformedPort) }
        return .success(value)
    }

    /// A lowercase name, or a dotted-quad address when the last label is numeric (as WHATWG URL parsing treats it).
    private static func name(_ text: Substring) -> (text: String, address: IPAddress?)? {
        let lower = text.lowercased()
        guard (1...253).contains(lower.utf8.count) else { return nil }
        let labels = lower.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.count),
                label.allSatisfy({ byte in
                    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                })
            else { return nil }
        }
        guard let last = labels.last, last.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return (lower, nil) }
        // 127.1, 0x7f.0.0.1 or 010.0.0.1 would be an address to a browser, but not in this form: refused.
        guard let address = IPAddress(lower), address.isIPv4 else { return nil }
        return (lower, address)
    }
}

extension IPAddress {
    /// The address in IPv6 text even when it is IPv4-mapped (`::ffff:10.0.0.1`), as a bracketed host keeps it.
    var ipv6Text: String {
        guard isIPv4 else { return description }
        return "::ffff:" + description
    }
}
