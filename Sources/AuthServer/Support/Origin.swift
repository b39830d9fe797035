import Foundation

/// The scheme, host and effective port of an http(s) URL, compared case-insensitively.
struct Origin: Sendable, Equatable {
    var scheme: String
    var host: String
    var port: Int

    /// Nil for anything but an absolute http or https URL with a host and no user information.
    init?(_ url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil
        else { return nil }
        self.scheme = scheme
        let lowered = host.lowercased()
        // Foundation on Linux keeps the brackets of an IPv6 host; elsewhere it may not.
        self.host = lowered.contains(":") && !lowered.hasPrefix("[") ? "[" + lowered + "]" : lowered
        self.port = components.port ?? Self.defaultPort(scheme)
    }

    /// `scheme://host[:port]`, the port only when it is not the scheme's default: the form
    /// ``AuthServerConfiguration/isOwnOrigin`` receives and issuers are written in.
    var serialized: String {
        scheme + "://" + host + (port == Self.defaultPort(scheme) ? "" : ":\(port)")
    }

    private static func defaultPort(_ scheme: String) -> Int {
        scheme == "https" ? 443 : 80
    }
}
