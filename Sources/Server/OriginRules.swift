import App
import HTTPServer

/// Which origins this server answers as (a stand-in until HTTPServer's origin policy is wired in): loopback
/// names, the address it listens on (any address of this machine when that is every interface), and the canonical
/// origin when configured, to which every other accepted name is sent.
struct OriginRules: Sendable {
    let canonical: String?
    let listeningOn: String
    /// A TLS proxy serves us: the browser's origin is https.
    let behindTLSProxy: Bool

    func decide(_ request: Request) -> OriginDecision {
        guard let host = request.headers["Host"]?.lowercased(), !host.isEmpty, host.utf8.count < 256 else { return .refused }
        let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }) + "]" : String(host.prefix { $0 != ":" })
        let origin = (behindTLSProxy ? "https://" : "http://") + host
        if let canonical {
            if canonical.lowercased() == origin || canonical.lowercased() == "https://" + host { return .accepted(canonical) }
            return isLocal(name) ? .notCanonical(canonical: canonical) : .refused
        }
        return isLocal(name) ? .accepted(origin) : .refused
    }

    /// Whether a serialized origin (`http://host:port`) is one of ours.
    func isOwn(_ origin: String) -> Bool {
        let parts = origin.split(separator: "://", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0] == "http" || parts[0] == "https" else { return false }
        if let canonical { return canonical.lowercased() == origin.lowercased() }
        var headers = HTTPHeaders()
        headers.add("Host", parts[1])
        guard case .accepted(let accepted) = decide(Request(method: .get, path: "/", headers: headers)) else { return false }
        return accepted.hasSuffix("://" + parts[1].lowercased())
    }

    func isLocal(_ name: String) -> Bool {
        name == "localhost" || name.hasSuffix(".localhost") || name.hasPrefix("127.") || name == "[::1]" || name == listeningOn
            || (["0.0.0.0", "::"].contains(listeningOn) && MachineAddresses.current().contains { $0.urlHost.lowercased() == name })
    }
}
