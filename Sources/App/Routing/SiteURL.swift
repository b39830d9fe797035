/// Every page and endpoint of the front: one source of truth for the routes the router matches and for the
/// links templates print. Each case's `segments` give both its `path` (a link) and its `pattern` (a route).
public enum SiteURL: Sendable, Equatable {
    case home
    /// The viewer entry for an author (DID or handle); redirects to one story.
    case stories(actor: String)
    /// One story, at Grain's permalink path.
    case story(did: String, rkey: String)
    case profile(actor: String)
    case create
    /// The create form's early look at a photo: where it was taken.
    case createInspect
    /// How far the visitor's clip is processed, as JSON, for the create form's script while its post waits.
    case createProgress
    /// The create form's place search as JSON, for its script.
    case placesData
    /// The web app manifest: the home-screen icon, its "New story" shortcut and the share target.
    case manifest
    /// Where a photo shared from another app lands (the manifest's share target): staged, then confirmed.
    case share
    /// The databases and the blob directory answer.
    case healthz
    /// Healthy and not stopping: a load balancer may send requests.
    case readyz
    /// Prometheus metrics, for the addresses `--metrics-from` allows.
    case metrics
    case login
    case logout
    case authCallback
    case clientMetadata
    /// The confirm step before deleting one's own story (GET), and the delete itself (POST).
    case deleteStory(did: String, rkey: String)
    /// An author's active stories as JSON, for the script viewer.
    case storiesData(actor: String)
    /// Where the script viewer records a story as seen (POST).
    case seen
    /// The lean-back display, optionally limited to some authors.
    case kiosk
    /// The kiosk's playlist as JSON.
    case kioskData
    /// The household's first-run page, which creates the owner.
    case welcome
    /// The owner's invitation page.
    case invite
    /// An invitation link.
    case join(token: String)
    /// Favourites a story, or takes the favourite back (POST).
    case favorite(did: String, rkey: String)
    /// A story's comments: the page without scripts (GET) and the form that adds one (POST).
    case comments(did: String, rkey: String)
    /// Deletes one of the visitor's comments on a story (POST).
    case deleteComment(did: String, rkey: String)
    /// A story's comments as JSON, a page at a time, for the viewer's comments panel.
    case commentsData(did: String, rkey: String)
    /// The link preview of a story's permalink: 1200 × 630, blurred when the story carries a warning.
    case storyPreview(did: String, rkey: String)
    /// The blurred stand-in of a warned story's photo.
    case storyBlurred(did: String, rkey: String)
    /// Reporting a story (`?story=`) or an account (`?actor=`): the form (GET) and the report (POST).
    case report
    /// Mutes an account, or unmutes it (POST).
    case mute(actor: String)
    /// Blocks an account, or unblocks it (POST).
    case block(actor: String)
    /// Whom the visitor muted or blocks, with undo.
    case muted
    /// Who favourited or commented on the visitor's stories.
    case activity
    /// Marks that activity seen, up to the moment the page showing it was made (POST).
    case activitySeen
    /// The household owner's review of reports (embedded household only).
    case adminReports
    /// The owner's administration of members and invitations.
    case admin
    /// The kiosk's settings page: builds a kiosk address and shows its QR code.
    case kioskSettings
    /// The QR code (SVG) of a kiosk address built from the query's options.
    case kioskQR
    /// The QR code (SVG) of a story's permalink, for the kiosk's "open it on your phone".
    case storyQR(did: String, rkey: String)
    /// "On this day": one year's memories in the viewer (`?i=` the story), for signed-in members only.
    case memories(years: Int)
    /// Makes a screen's one-time pairing link (POST, from the kiosk settings).
    case screenPairings
    /// A pairing link, opened on the tablet: the confirm page (GET) and the pairing itself (POST).
    case screenPairing(token: String)
    /// The QR code (SVG) of a pairing link, while it can still be used.
    case screenPairingQR(token: String)
    /// An author's share links to one of their stories: the list with Revoke (GET), a new link or a revocation (POST).
    case storyShares(did: String, rkey: String)
    /// A share link: one story, for whoever has the link.
    case sharedStory(token: String)
    /// The shared story's photo, through its link.
    case sharedPhoto(token: String)
    /// The shared story's link preview (Open Graph image), through its link.
    case sharedPreview(token: String)
    /// How stories work on this server, for anyone: who sees them, how long they last, how to join.
    case help

    /// One piece of a path: fixed text, or a value the router captures under a name.
    enum Segment: ExpressibleByStringLiteral {
        case fixed(String)
        case value(_ name: String, _ value: String)

        init(stringLiteral text: String) { self = .fixed(text) }
    }

    /// The case's path, piece by piece. `path` (a link) and `pattern` (a route) both come from here, so the two
    /// cannot disagree; a new page is this line and its controller's route.
    var segments: [Segment] {
        switch self {
        case .home: []
        case .stories(let actor): ["stories", .value("actor", actor)]
        case .story(let did, let rkey): ["profile", .value("did", did), "story", .value("rkey", rkey)]
        case .profile(let actor): ["profile", .value("actor", actor)]
        case .create: ["create"]
        case .createInspect: ["api", "inspect"]
        case .createProgress: ["create", "progress"]
        case .placesData: ["api", "places"]
        case .manifest: ["manifest.webmanifest"]
        case .help: ["help"]
        case .share: ["share"]
        case .healthz: ["healthz"]
        case .readyz: ["readyz"]
        case .metrics: ["metrics"]
        case .login: ["login"]
        case .logout: ["logout"]
        case .authCallback: ["auth", "callback"]
        case .clientMetadata: ["oauth-client-metadata.json"]
        case .deleteStory(let did, let rkey): SiteURL.story(did: did, rkey: rkey).segments + ["delete"]
        case .storiesData(let actor): ["api", "stories", .value("actor", actor)]
        case .seen: ["api", "seen"]
        case .kiosk: ["kiosk"]
        case .kioskData: ["api", "kiosk"]
        case .welcome: ["welcome"]
        case .invite: ["invite"]
        case .join(let token): ["join", .value("token", token)]
        case .favorite(let did, let rkey): SiteURL.story(did: did, rkey: rkey).segments + ["favorite"]
        case .comments(let did, let rkey): SiteURL.story(did: did, rkey: rkey).segments + ["comments"]
        case .deleteComment(let did, let rkey): SiteURL.story(did: did, rkey: rkey).segments + ["comments", "delete"]
        case .commentsData(let did, let rkey): ["api", "comments", .value("did", did), .value("rkey", rkey)]
        case .storyPreview(let did, let rkey): SiteURL.story(did: did, rkey: rkey).segments + ["preview.jpg"]
        case .storyBlurred(let did, let rkey): SiteURL.story(did: did, rkey: rkey).segments + ["blurred.jpg"]
        case .report: ["report"]
        case .mute(let actor): SiteURL.profile(actor: actor).segments + ["mute"]
        case .block(let actor): SiteURL.profile(actor: actor).segments + ["block"]
        case .muted: ["muted"]
        case .activity: ["activity"]
        case .activitySeen: ["activity", "seen"]
        case .adminReports: ["admin", "reports"]
        case .admin: ["admin"]
        case .memories(let years): ["memories", .value("years", String(years))]
        case .kioskSettings: ["kiosk", "settings"]
        case .kioskQR: ["kiosk", "qr.svg"]
        case .storyQR(let did, let rkey): SiteURL.story(did: did, rkey: rkey).segments + ["qr.svg"]
        case .screenPairings: ["kiosk", "pair"]
        case .screenPairing(let token): ["kiosk", "pair", .value("token", token)]
        case .screenPairingQR(let token): ["kiosk", "pair", .value("token", token), "qr.svg"]
        case .storyShares(let did, let rkey): SiteURL.story(did: did, rkey: rkey).segments + ["shares"]
        case .sharedStory(let token): ["s", .value("token", token)]
        case .sharedPhoto(let token): ["s", .value("token", token), "photo.jpg"]
        case .sharedPreview(let token): ["s", .value("token", token), "preview.jpg"]
        }
    }

    /// The path, with each value percent-encoded.
    public var path: String {
        "/"
            + segments.map {
                switch $0 {
                case .fixed(let text): text
                case .value(_, let value): Self.segment(value)
                }
            }.joined(separator: "/")
    }

    /// The router pattern: the path with `:name` in place of each value. The case's own values do not matter.
    var pattern: String {
        "/"
            + segments.map {
                switch $0 {
                case .fixed(let text): text
                case .value(let name, _): ":" + name
                }
            }.joined(separator: "/")
    }

    /// `path` with a query string; values are percent-encoded, nil values left out.
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
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// A `next` or `from` value is only honoured when it is a path on this site, never another origin.
    ///
    /// Browsers drop TAB, CR and LF anywhere in a URL and treat `\` as `/`, so `/\t/evil.example` becomes
    /// `//evil.example`, another site. Rather than list the tricks, only printable ASCII is accepted (anything
    /// else would have been percent-encoded by a browser anyway), and the path must not start a second slash.
    static func localPath(_ candidate: String?) -> String? {
        guard let candidate, candidate.hasPrefix("/"), candidate.utf8.count < 512,
            candidate.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") })
        else { return nil }
        let second = candidate.utf8.dropFirst().first
        guard second != UInt8(ascii: "/") else { return nil }
        return candidate
    }
}

/// The stand-in a route names its case's values with (`.story(did: .key, rkey: .key)`): a route reads only the case's
/// pattern, where each value is `:name`, so the value is never used.
extension String {
    static var key: String { "" }
}

extension Int {
    static var key: Int { 0 }
}
