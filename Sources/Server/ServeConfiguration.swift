public import App
public import AuthServer
public import Backups
public import Foundation
public import Logging
public import Outbound
import WebAddresses

/// Everything `grain-stories serve` can be told, with defaults for a household box.
public struct ServeConfiguration: Sendable {
    /// The address to listen on; `0.0.0.0` to accept other machines on the network.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (tests).
    public var port: UInt16 = 8080
    /// All state lives here: SQLite files and blobs. The sealing key does not (see `DataKey`).
    public var dataDirectory = "./data"
    /// The sealing key's file (`--key-file`); nil looks in `keyDirectory` under the data directory's key id.
    public var keyFile: String?
    /// Where sealing keys live (`--key-dir`); nil is `$XDG_CONFIG_HOME/grain-stories/keys` or `~/.config/...`.
    public var keyDirectory: String?
    /// Accept a key file inside the data directory (`--allow-key-in-data`): backups of the data then carry it.
    public var allowKeyInData = false

    /// Where the sealing key is looked for.
    var keyLocation: DataKey.Location {
        DataKey.Location(dataDirectory: dataDirectory, keyFile: keyFile, keyDirectory: keyDirectory, allowInData: allowKeyInData)
    }
    /// A remote hatk server (grain.social or self-hosted). When nil the embedded backend serves.
    public var appview: URL?
    /// The origin browsers use to reach us; defaults to `http://<host>:<port>`.
    public var publicURL: String?
    public var templatesDirectory = "./Templates"
    public var publicDirectory = "./Public"
    /// Re-read templates and static files on change.
    public var development = false
    /// Seed the demo household into an empty data directory.
    public var demo = false
    /// Where the demo's sample photographs are (see `make demo-photos`).
    public var demoPhotosDirectory = "./.build/demo-photos"
    /// Extra demo members with one story each (benchmarks use a strip of 20 authors).
    public var demoExtraMembers = 0
    /// Extra demo stories over past days, each with a ~500 KB photo of its own (the backup benchmark's archive).
    public var demoArchiveStories = 0
    /// Whom the embedded household shows its stories to (`--visibility`): nil is `household`, its members only. With
    /// `--appview` the stories are on the network and public, whatever this says.
    public var visibility: Audience?
    /// Whom this server's stories are for, all options considered.
    public var audience: Audience { appview != nil ? .public : visibility ?? .household }
    /// The household's name (`--household-name`), the one thing of it the front door shows a stranger; nil says
    /// "A private household".
    public var householdName: String?
    /// How a stranger reaches the household's owner (`--household-contact`), on the front door and `/help`; nil
    /// shows none.
    public var householdContact: String?
    /// Household handles end in this domain: `maya.home.test`.
    public var handleDomain = "home.test"
    /// How photos are named from their GPS position.
    public enum GeocoderChoice: String, Sendable { case offline, nominatim, none }
    public var geocoder = GeocoderChoice.offline
    public var nominatimURL = URL(string: "https://nominatim.openstreetmap.org")!
    /// Where the Nominatim server may be: public addresses only, and no flag changes that (coordinates and searches
    /// must never go to whatever a name resolves to on the LAN). Tests allow their stub on loopback.
    public var nominatimPolicy = AddressPolicy.publicOnly
    /// The GeoNames-derived table of populated places (`make places` fetches it).
    public var placesCSV = "./.build/places/cities1000.csv"
    /// The place search table (GeoNames cities1000 with populations and alternate names; `make places-data`).
    public var placeNamesCSV = "./.build/places/place-names.csv"
    /// Published photos are made to fit this many bytes (Grain: 900,000; at most the lexicon's 5,000,000).
    public var maxPhotoBytes = 900_000
    /// The largest clip accepted from a phone (the embedded household only).
    public var maxVideoBytes = 200_000_000
    /// How long answers of the hatk server are reused (the author list, stories, profiles).
    public var readCacheTTL: Duration = .seconds(2)
    /// How long pages for visitors without a session are reused.
    public var pageCacheTTL: Duration = .seconds(1)
    /// Seconds each photo shows in the viewer and the kiosk (Grain: 5).
    public var storySeconds: Double = 5
    /// How long seen marks wait to go up together with `markStoriesViewed` (Grain: 30 s; tests shorten or stretch it).
    public var seenBatchDelay: Duration = .seconds(30)
    /// Origins that may show `/kiosk` in a frame (a wall dashboard); every other page refuses framing.
    public var kioskFrameAncestors: [String] = []

    /// A CSP `frame-ancestors` source: an http(s) origin without path, quote or space.
    static func isFrameAncestor(_ origin: String) -> Bool {
        guard let url = URL(string: origin), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil, url.path.isEmpty || url.path == "/", url.query == nil
        else { return false }
        return !origin.contains(where: { "'; ,\"".contains($0) || $0.isWhitespace })
    }
    /// How long one call to the hatk server may take.
    public var upstreamTimeout: TimeInterval = 10
    /// Peers whose `X-Forwarded-For`, `-Proto` and `-Host` are believed, as `--trusted-proxy` gave them (CIDR ranges or
    /// addresses); nil: see `believedProxies`.
    public var trustedProxies: [String]?
    /// The peers whose forwarding headers count: `--trusted-proxy`'s, or else with `--behind-tls-proxy` loopback
    /// (where a proxy on the same box connects from), and without it nobody: a server that browsers reach directly
    /// believes no forwarding header, whoever sends it, so a process on the box cannot pass for a thousand clients.
    public var believedProxies: [String] {
        trustedProxies ?? (behindTLSProxy ? ["127.0.0.0/8", "::1/128"] : [])
    }
    /// Names or addresses accepted as ours besides this machine's own (`--allowed-host`): the address a Docker host
    /// is reached at from the LAN, a local DNS name.
    public var allowedHosts: [String] = []
    /// A TLS-terminating proxy sits in front of us: cookies get `Secure` and the `__Host-` prefix, and per-client
    /// limits count the last `X-Forwarded-For` hop (the address the proxy saw) instead of the proxy's own address.
    public var behindTLSProxy = false
    /// Photos one client address may post per minute; past it the form answers 429 with Retry-After.
    public var uploadsPerMinute = 30
    /// Sign-ins one client address may start per minute on the front (`/login`); tests that sign in many browsers
    /// from one address raise it.
    public var signInsPerMinute = 20
    /// Photos processed at once: one per core, since the work is all CPU.
    public var imageWorkers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Photos waiting for a worker; past that an upload answers 503 with Retry-After instead of queueing.
    public var imageQueue = 16
    /// The embedded authorization server issues and requires DPoP nonces, like an atproto-profile server.
    public var requireDPoPNonce = false
    /// A PostgreSQL URL (`--sessions postgres://...`) where the front keeps sessions, sign-ins in progress, seen
    /// marks and rate-limit windows, shared with the other fronts behind one load balancer; nil keeps them in
    /// `<data>/front.sqlite`.
    public var sessionsURL: String?
    /// Where nightly backups go (`--backup-dir`); nil makes none. Start-up's backup before a migration goes here too.
    public var backupDirectory: String?
    /// Nightly backups kept (`--backup-keep`); older ones are removed after each new one.
    public var backupKeep = 7
    /// When the nightly backup runs (`--backup-time HH:MM`, the server's local time).
    public var backupSchedule = BackupSchedule(hour: 3, minute: 30)
    /// `text` or `json` log lines (`--log-format`).
    public var logFormat = Log.Format.text
    /// Addresses or CIDR ranges that may read `/metrics` (`--metrics-from`); empty turns `/metrics` off.
    public var metricsFrom: [String] = []
    /// Built for a command (`users ...`) beside a server that may be running on the same data: the upload bodies in
    /// `<data>/uploads` are that server's, not leftovers to sweep.
    var forCommand = false

    /// The configuration a command (`users …`) opens the data with: serve's, with no socket for others (a free
    /// loopback port), no demo seeding or file watching, and the uploads left to the server.
    static func command(_ serve: ServeConfiguration) -> ServeConfiguration {
        var configuration = serve
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.demo = false
        configuration.development = false
        configuration.forCommand = true
        return configuration
    }
    /// Cheap scrypt parameters, for tests only.
    public var fastPasswordHashing = false
    /// OAuth clients the embedded authorization server accepts besides our own front and loopback clients (hatk's
    /// `oauth.clients`): another grain-stories using this household as its remote hatk, say.
    public var registeredClients: [RegisteredClient] = []

    public init() {}

    /// Whether only this machine can reach the server: bound to a loopback address, with no TLS proxy and no public
    /// URL elsewhere that would let others in. The demo's published passwords are for such a server only.
    public var isLoopbackOnly: Bool {
        guard !behindTLSProxy, Self.isLoopback(host) else { return false }
        guard let canonicalOrigin else { return true }
        return URL(string: canonicalOrigin)?.host.map(Self.isLoopback) ?? false
    }

    /// `localhost`, or a loopback address (127.0.0.0/8, `::1`, bracketed or not).
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare.lowercased() == "localhost" || IPAddress(bare).flatMap(AddressCategory.of) == .loopback
    }

    /// The configured public origin (`--public-url`) without a trailing slash: the one origin the site lives at.
    public var canonicalOrigin: String? {
        guard let publicURL else { return nil }
        return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
    }
}
