import Foundation

/// Everything `grain-stories serve` can be told, with defaults for a household box.
public struct AppConfiguration: Sendable {
    /// The address to listen on; `0.0.0.0` to accept other machines on the network.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (tests).
    public var port: UInt16 = 8080
    /// All state lives here: SQLite files, blobs, keys.
    public var dataDirectory = "./data"
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
    /// Household handles end in this domain: `maya.home.test`.
    public var handleDomain = "home.test"
    /// How photos are named from their GPS position.
    public enum GeocoderChoice: String, Sendable { case offline, nominatim, none }
    public var geocoder = GeocoderChoice.offline
    public var nominatimURL = URL(string: "https://nominatim.openstreetmap.org")!
    /// The GeoNames-derived table of populated places (`make places` fetches it).
    public var placesCSV = "./.build/places/cities1000.csv"
    /// Published photos are made to fit this many bytes (Grain: 900,000; at most the lexicon's 5,000,000).
    public var maxPhotoBytes = 900_000
    /// How long answers of the hatk server are reused (the author list, stories, profiles).
    public var readCacheTTL: Duration = .seconds(2)
    /// How long pages for visitors without a session are reused.
    public var pageCacheTTL: Duration = .seconds(1)
    /// How long one call to the hatk server may take.
    public var upstreamTimeout: TimeInterval = 10
    /// A TLS-terminating proxy sits in front of us: cookies get `Secure` and the `__Host-` prefix.
    public var behindTLSProxy = false
    /// The embedded authorization server issues and requires DPoP nonces, like an atproto-profile server.
    public var requireDPoPNonce = false
    /// Cheap scrypt parameters, for tests only.
    public var fastPasswordHashing = false

    public init() {}

    /// The public origin once the server's port is known.
    func resolvedPublicURL(port: UInt16) -> String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let host = (self.host == "0.0.0.0" || self.host == "::") ? "127.0.0.1" : self.host
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
