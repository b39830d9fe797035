public import Clocks
public import WebAddresses

/// Which origin a request was sent to, and whether it is ours: the one rule for every absolute URL, cookie, CSRF
/// origin check and OAuth client the server builds from a request.
///
/// The rule:
/// - **Scheme**: `https` when configured behind a TLS proxy, or when the socket peer is a trusted proxy that says
///   `X-Forwarded-Proto: https`; otherwise `http`.
/// - **Host and port**: from `X-Forwarded-Host` when the peer is a trusted proxy and sent one, else from `Host`;
///   lowercased; a DNS-style name, a dotted-quad IPv4 address or a bracketed IPv6 address, then an optional port,
///   kept as sent (Docker maps ports, so the browser's port may not be the one we bound). A missing, repeated or
///   malformed Host, and an IPv6 zone identifier (`[fe80::1%25eth0]`), are refused.
/// - **Accepted hosts** (the port plays no part): a configured name (the canonical origin's host, and every
///   `allowedHosts` entry, names or addresses); `localhost` and any `*.localhost`; an address of this machine
///   (its interfaces, re-read every `refreshInterval`, and loopback); this machine's host name, its first label, or
///   that label with `.local`. **Everything else is refused**: an attacker-chosen name (`evil.example`, or one that
///   DNS rebinding points at us) or another machine's address (`169.254.169.254`) never becomes an origin.
/// - **Canonical origin** (`--public-url`): a request on it is `.own`; a request on another accepted host is
///   `.notCanonical`, for the front to redirect GET and HEAD to the canonical origin (same path and query) and refuse
///   other methods. Without one, every accepted origin is `.own`.
///
/// Behind a proxy, the proxy must pass the browser's host on (nginx: `proxy_set_header Host $host` or
/// `X-Forwarded-Host`); one that sends its upstream's address instead makes every request look non-canonical.
public struct OriginPolicy: Sendable {
    /// The configured canonical origin, if any.
    public let canonical: Origin?
    /// Extra accepted names and addresses (`--allowed-host`), lowercase.
    public let allowedHosts: Set<String>
    private let allowedAddresses: Set<IPAddress>
    /// Whether every request arrived through a TLS proxy, whatever `X-Forwarded-Proto` says.
    public let behindTLSProxy: Bool
    private let machine: MachineSnapshot

    /// - Parameters:
    ///   - canonical: The public URL (`https://stories.example`); only its origin counts.
    ///   - allowedHosts: Further names or addresses to accept (`stories.lan`, `192.168.1.20`); a port is ignored.
    ///   - behindTLSProxy: Every request came through a TLS-terminating proxy.
    ///   - machine: Where this machine's addresses and host name come from.
    ///   - refreshInterval: How long the machine's addresses are trusted before they are read again.
    ///   - clock: What the refresh is measured on.
    /// - Throws: `OriginPolicyError` for a canonical URL or allowed host that cannot be an origin.
    public init(
        canonical: String? = nil, allowedHosts: [String] = [], behindTLSProxy: Bool = false, machine: MachineNames = .system,
        refreshInterval: Duration = .seconds(30), clock: MonotonicClock = .continuous
    ) throws(OriginPolicyError) {
        if let canonical {
            guard let origin = Origin(canonical) else { throw OriginPolicyError(value: canonical, role: "public URL") }
            // Behind a TLS proxy every request arrives as https: an http canonical origin would send each page to
            // itself, forever.
            if behindTLSProxy, origin.scheme == "http" { throw OriginPolicyError(value: canonical, role: "plain public URL") }
            self.canonical = origin
        } else {
            self.canonical = nil
        }
        var names: Set<String> = []
        var addresses: Set<IPAddress> = []
        for entry in allowedHosts {
            guard case .success(let authority) = Authority.parse(entry) else {
                throw OriginPolicyError(value: entry, role: "allowed host")
            }
            if let address = authority.address { addresses.insert(address) } else { names.insert(authority.host) }
        }
        self.allowedHosts = names
        allowedAddresses = addresses
        self.behindTLSProxy = behindTLSProxy
        self.machine = MachineSnapshot(source: machine, refreshInterval: refreshInterval, clock: clock)
    }

    /// The origin `request` was sent to, and whether it is ours (see the rule above).
    public func origin(of request: some RequestHeadFields) -> OriginDecision {
        let hosts = request.headers.values("Host")
        let authority: String
        if let forwarded = request.forwardedHost {
            authority = forwarded
        } else {
            guard let host = hosts.first else { return .refused(OriginRefusal(.missingHost, host: "")) }
            guard hosts.count == 1 else { return .refused(OriginRefusal(.malformedHost, host: hosts.joined(separator: ", "))) }
            authority = host
        }
        let parsed: Authority
        switch Authority.parse(authority) {
        case .success(let value): parsed = value
        case .failure(.zoneIdentifier): return .refused(OriginRefusal(.zoneIdentifier, host: authority))
        case .failure(.empty): return .refused(OriginRefusal(.missingHost, host: authority))
        case .failure: return .refused(OriginRefusal(.malformedHost, host: authority))
        }
        let scheme = behindTLSProxy || request.forwardedProto == "https" ? "https" : "http"
        guard let origin = Origin(scheme: scheme, parsed) else { return .refused(OriginRefusal(.malformedHost, host: authority)) }
        guard accepts(origin) else { return .refused(OriginRefusal(.unknownHost, host: origin.host)) }
        if let canonical, origin != canonical {
            return .notCanonical(origin, canonical: canonical)
        }
        return .own(origin)
    }

    /// Whether `origin` (an origin, or an absolute URL whose origin is taken) is ours: the canonical origin when one
    /// is configured, else any http or https origin on an accepted host. Without a request its port cannot be
    /// checked (the browser's port is not ours behind Docker's mapping): to bind a URL to the request that carries
    /// it, compare with `origin(of:)` instead.
    public func isOwn(origin text: String) -> Bool {
        guard let origin = Origin(text) else { return false }
        if let canonical { return origin == canonical }
        return accepts(origin)
    }

    /// Whether an origin's host is accepted by the rule above.
    func accepts(_ origin: Origin) -> Bool {
        if let canonical, origin.host == canonical.host { return true }
        if let address = origin.address {
            return allowedAddresses.contains(address) || machine.isOwn(address)
        }
        let name = origin.host
        return allowedHosts.contains(name) || name == "localhost" || name.hasSuffix(".localhost") || machine.isOwn(name: name)
    }
}

/// The outcome of `OriginPolicy.origin(of:)`; the front renders it.
public enum OriginDecision: Sendable, Equatable {
    /// Ours: the canonical origin, or without one any accepted origin.
    case own(Origin)
    /// An accepted host that is not the canonical origin: redirect GET and HEAD to `canonical.url(path:query:)`,
    /// refuse other methods with a page that names the canonical origin.
    case notCanonical(Origin, canonical: Origin)
    /// Not ours: no usable Host, or a host that names neither this machine nor a configured name.
    case refused(OriginRefusal)

    /// The origin the request was sent to, when its host was accepted (canonical or not).
    public var origin: Origin? {
        switch self {
        case .own(let origin), .notCanonical(let origin, _): origin
        case .refused: nil
        }
    }
}

/// Why a request's origin was refused.
public struct OriginRefusal: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// No Host header (or an empty one).
        case missingHost
        /// Not a name, IPv4 or bracketed IPv6 address with an optional port, or Host repeated.
        case malformedHost
        /// An IPv6 zone identifier, which names the client's interface, never this server.
        case zoneIdentifier
        /// Well-formed, but neither this machine nor a configured name.
        case unknownHost
    }

    public let reason: Reason
    /// The host as sent, cut to 100 characters (for logs and the refusal page, which must escape it).
    public let host: String

    init(_ reason: Reason, host: String) {
        self.reason = reason
        self.host = String(host.prefix(100))
    }

    /// A sentence for logs.
    public var description: String {
        switch reason {
        case .missingHost: "the request names no host"
        case .malformedHost: "the host \(String(reflecting: host)) is not a valid host name or address"
        case .zoneIdentifier: "the host \(String(reflecting: host)) carries an IPv6 zone, which cannot name this server"
        case .unknownHost: "the host \(String(reflecting: host)) is not a name or address of this server"
        }
    }
}

/// A `--public-url` or `--allowed-host` value that cannot be an origin.
public struct OriginPolicyError: Error, Sendable, CustomStringConvertible {
    /// The value as given.
    public let value: String
    /// Which option it came from.
    let role: String

    public var description: String {
        switch role {
        case "public URL":
            "The public URL \(String(reflecting: value)) is not an http or https origin (example: https://stories.example)"
        case "plain public URL":
            "--behind-tls-proxy says browsers reach this server over https, but the public URL \(String(reflecting: value)) is http: "
                + "write it with https://, or leave out --behind-tls-proxy if browsers really use http"
        default:
            "The allowed host \(String(reflecting: value)) is not a host name or address (examples: stories.lan, 192.168.1.20)"
        }
    }
}
