/// Every page of the front: one source of truth for route patterns and for the links templates print.
public enum SiteURL: Sendable, Equatable {
    case home
    /// The viewer entry for an author (DID or handle); redirects to one story.
    case stories(actor: String)
    /// One story, at Grain's permalink path.
    case story(did: String, rkey: String)
    case profile(actor: String)
    case create
    case healthz
    case asset(String)
    case login
    case logout
    case authCallback
    case clientMetadata
    /// The confirm step before deleting one's own story.
    case deleteStory(did: String, rkey: String)
    /// An author's active stories as JSON, for the script viewer.
    case storiesData(actor: String)
    /// Where the script viewer records a story as seen (POST).
    case seen
    /// The lean-back display, optionally limited to some authors.
    case kiosk
    /// The kiosk's playlist as JSON.
    case kioskData

    /// The router pattern for each case that is a route.
    static let patterns: [(SiteURL.Kind, String)] = [
        (.home, "/"),
        (.stories, "/stories/:actor"),
        (.story, "/profile/:did/story/:rkey"),
        (.profile, "/profile/:actor"),
        (.create, "/create"),
        (.healthz, "/healthz"),
        (.storiesData, "/api/stories/:actor"),
        (.kiosk, "/kiosk"),
        (.kioskData, "/api/kiosk"),
    ]

    enum Kind { case home, stories, story, profile, create, healthz, storiesData, kiosk, kioskData }

    /// The path, with each dynamic segment percent-encoded.
    public var path: String {
        switch self {
        case .home: return "/"
        case .stories(let actor): return "/stories/" + Self.segment(actor)
        case .story(let did, let rkey): return "/profile/" + Self.segment(did) + "/story/" + Self.segment(rkey)
        case .profile(let actor): return "/profile/" + Self.segment(actor)
        case .create: return "/create"
        case .healthz: return "/healthz"
        case .asset(let path): return path
        case .login: return "/login"
        case .logout: return "/logout"
        case .authCallback: return "/auth/callback"
        case .clientMetadata: return "/oauth-client-metadata.json"
        case .deleteStory(let did, let rkey): return SiteURL.story(did: did, rkey: rkey).path + "/delete"
        case .storiesData(let actor): return "/api/stories/" + Self.segment(actor)
        case .seen: return "/api/seen"
        case .kiosk: return "/kiosk"
        case .kioskData: return "/api/kiosk"
        }
    }

    /// `path` with a query string; values are percent-encoded.
    public func with(_ query: [(String, String?)]) -> String {
        let items = query.compactMap { name, value in value.map { "\(name)=\(Self.queryComponent($0))" } }
        return items.isEmpty ? path : path + "?" + items.joined(separator: "&")
    }

    static func segment(_ value: String) -> String {
        encode(value, keeping: "-._~:@!$&'()*+,;=")
    }

    static func queryComponent(_ value: String) -> String {
        encode(value, keeping: "-._~:@/")
    }

    private static func encode(_ value: String, keeping allowed: String) -> String {
        var out = ""
        for byte in value.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || (byte < 0x80 && allowed.contains(c))
            {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// A `from` value is only honoured when it is a path on this site, never another origin.
    static func localPath(_ candidate: String?) -> String? {
        guard let candidate, candidate.hasPrefix("/"), !candidate.hasPrefix("//"), !candidate.hasPrefix("/\\"),
            !candidate.contains(where: { $0.isNewline || $0 == "\\" }), candidate.count < 512
        else { return nil }
        return candidate
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
