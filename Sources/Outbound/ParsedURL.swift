import CCurl
import WebAddresses

/// A URL held in libcurl's own parsed form, handed to the transfer as is (`CURLOPT_CURLU`). Its origin is built from
/// libcurl's scheme, host and port (the port filled in when the URL has none), so an allowance and the connection it
/// lets through can never disagree about which server a URL names; that host and port must also pass `Origin`'s own
/// checks, or the URL is refused.
final class ParsedURL: @unchecked Sendable {
    let handle: OpaquePointer
    let origin: Origin

    init?(_ text: String) {
        guard let handle = curl_url() else { return nil }
        guard curl_url_set(handle, CURLUPART_URL, text, 0) == CURLUE_OK,
            let scheme = Self.part(handle, CURLUPART_SCHEME)?.lowercased(), scheme == "http" || scheme == "https",
            let host = Self.part(handle, CURLUPART_HOST)?.lowercased(), !host.isEmpty,
            let port = Self.part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)),
            let origin = Origin(scheme: scheme, authority: host + ":" + port)
        else {
            curl_url_cleanup(handle)
            return nil
        }
        self.handle = handle
        self.origin = origin
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
