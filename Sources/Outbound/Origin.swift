import CCurl
public import Foundation

/// Scheme, host and port of a URL, as libcurl itself parses them, so an allowance and the connection it lets
/// through can never disagree about which server a URL names.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// Lowercased; an IPv6 literal keeps its brackets (`[::1]`).
    public let host: String
    /// The explicit port, or the scheme's default.
    public let port: Int

    /// The origin of an `http` or `https` URL; nil for other schemes and for anything libcurl cannot parse.
    public init?(_ url: URL) {
        self.init(url.absoluteString)
    }

    /// The origin of an `http` or `https` URL given as text.
    public init?(_ text: String) {
        guard let parsed = ParsedURL(text) else { return nil }
        self = parsed.origin
    }

    init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// `https://example.com:443`.
    public var description: String { "\(scheme)://\(host):\(port)" }
}

/// A URL held in libcurl's own parsed form, handed to the transfer as is (`CURLOPT_CURLU`).
final class ParsedURL: @unchecked Sendable {
    let handle: OpaquePointer
    let origin: Origin

    init?(_ text: String) {
        guard let handle = curl_url() else { return nil }
        guard curl_url_set(handle, CURLUPART_URL, text, 0) == CURLUE_OK,
            let scheme = Self.part(handle, CURLUPART_SCHEME)?.lowercased(), scheme == "http" || scheme == "https",
            let host = Self.part(handle, CURLUPART_HOST)?.lowercased(), !host.isEmpty,
            let port = Self.part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)).flatMap({ Int($0) })
        else {
            curl_url_cleanup(handle)
            return nil
        }
        self.handle = handle
        origin = Origin(scheme: scheme, host: host, port: port)
    }

    deinit {
        curl_url_cleanup(handle)
    }

    private static func part(_ handle: OpaquePointer, _ part: CURLUPart, flags: UInt32 = 0) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, part, &value, flags) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}
