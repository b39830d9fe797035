import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Request {
    /// The client address that per-client limits (sign-in attempts, uploads) count against.
    ///
    /// Directly on the network it is the socket peer. Behind a reverse proxy every request comes from the proxy,
    /// so the proxy's record is used instead: the last `X-Forwarded-For` hop, which the proxy appended itself.
    /// Earlier hops are whatever the client sent and are never trusted. A last hop that is not a numeric IP
    /// address falls back to the peer, which lumps such requests together: the stricter side.
    /// - Parameter trustingForwardedFor: true only when a proxy we run sits in front (`--behind-tls-proxy`).
    /// - Returns: a numeric IPv4 or IPv6 address, or nil when the server could not tell.
    public func clientAddress(trustingForwardedFor: Bool) -> String? {
        if trustingForwardedFor, let hop = lastForwardedHop, Self.isNumericAddress(hop) { return hop }
        return remoteAddress
    }

    /// The last entry of the `X-Forwarded-For` list, across repeated header lines.
    var lastForwardedHop: String? {
        guard let last = headers.values("X-Forwarded-For").last,
            let hop = last.split(separator: ",", omittingEmptySubsequences: false).last
        else { return nil }
        let trimmed = hop.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    static func isNumericAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
