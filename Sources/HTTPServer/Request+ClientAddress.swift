import WebAddresses

extension RequestHeadFields {
    /// Whether the socket peer is one of the trusted proxies, so its forwarding headers are believed.
    public var peerIsTrustedProxy: Bool {
        guard let peer = remoteAddress.flatMap({ IPAddress($0) }) else { return false }
        return trustedProxies.contains(peer)
    }

    /// The client address that per-client limits (sign-in attempts, uploads) count against, in canonical form
    /// (`2001:db8::1`, never `2001:0db8:0::1`, so one client cannot pass for several by respelling its address).
    ///
    /// A peer that is not a trusted proxy is the client, whatever it writes in `X-Forwarded-For`. Behind trusted
    /// proxies the `X-Forwarded-For` list (every header line, in order) is read from the right: each proxy appends
    /// the address it saw, so the right-most entry that is not itself a trusted proxy is the client. Entries to its
    /// left are whatever the client sent and are never used. A hop that is not a numeric address stops the walk at
    /// the last address a trusted proxy vouched for (the peer itself when that is the right-most entry), which lumps
    /// such requests together: the stricter side.
    /// - Returns: a numeric IPv4 or IPv6 address, or nil when the server could not tell.
    public var clientAddress: String? {
        guard let text = remoteAddress else { return nil }
        guard let peer = IPAddress(text) else { return text }
        guard trustedProxies.contains(peer) else { return peer.description }
        var client = peer
        for hop in forwardedList("X-Forwarded-For").reversed() {
            guard let address = IPAddress(hop) else { break }
            client = address
            if !trustedProxies.contains(address) { break }
        }
        return client.description
    }

    /// What per-client limits (sign-in attempts and starts, PAR, uploads) count against: ``clientAddress``, with an
    /// IPv6 client's address replaced by its /64 (`2001:db8:1:2::/64`; see ``IPAddress/clientBlock``). IPv4
    /// addresses and text that is not an address are kept as they are.
    public var clientKey: String? {
        guard let text = clientAddress else { return nil }
        guard let address = IPAddress(text), !address.isIPv4 else { return text }
        return address.clientBlock.description + "/64"
    }

    /// `X-Forwarded-Proto` (`https` or `http`, lowercased) when a trusted proxy sent it: its right-most entry, the
    /// one the nearest proxy wrote. Nil from any other peer.
    public var forwardedProto: String? {
        guard peerIsTrustedProxy, let last = forwardedList("X-Forwarded-Proto").last else { return nil }
        let proto = last.lowercased()
        return proto == "https" || proto == "http" ? proto : nil
    }

    /// `X-Forwarded-Host` when a trusted proxy sent it: its right-most entry, unvalidated (`OriginPolicy` decides
    /// whether it names us). Nil from any other peer.
    public var forwardedHost: String? {
        guard peerIsTrustedProxy else { return nil }
        return forwardedList("X-Forwarded-Host").last
    }

    /// The comma-separated entries of every `name` header line, in order, trimmed; empty entries are kept so that
    /// a trailing comma is seen as a hop that is not an address.
    func forwardedList(_ name: String) -> [String] {
        let lines = headers.values(name)
        guard !lines.isEmpty else { return [] }
        // Cut at the ASCII comma by byte, as the cookie parser does, so a combining mark cannot hide one.
        return lines.flatMap { line in
            line.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
                String(Substring(Substring.trimmed($0)))
            }
        }
    }
}
