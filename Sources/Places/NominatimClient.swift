import Caching
public import Clocks
public import Foundation
public import Outbound

/// Reverse geocoding through a Nominatim server, as Grain does it, within the public server's usage policy: an
/// identifying User-Agent, at most one request per interval across all callers, and a cache so that a burst of
/// photos from one spot costs one request.
///
/// Privacy: coordinates go only to `baseURL` (redirects are not followed), are rounded to 5 decimals (about 1 m)
/// before they are sent, are kept only as cache keys in memory, and never appear in errors or logs. Only use it
/// when the author's `includeLocation` preference is on: sending coordinates discloses them to a third party.
public final class NominatimClient: Sendable {
    /// The largest answer accepted; real reverse answers are a few kilobytes.
    static let maximumBodySize = 512 * 1024

    private let baseURL: URL
    private let userAgent: String
    private let timeout: Duration
    let http: OutboundHTTP
    private let gate: RequestGate
    private let cache: Cache<CoordinateKey, NominatimResult?>
    private let searches: Cache<String, [NominatimResult]>

    /// The most results a search asks for.
    public static let maximumSearchResults = 10
    /// What is sent of a search: longer text is cut (no place name is this long).
    public static let maximumSearchCharacters = 100

    /// - Parameters:
    ///   - baseURL: The server; `/reverse` is appended to its path.
    ///   - userAgent: Sent with every request; the public server requires one that identifies the application.
    ///   - minimumInterval: The least time between the starts of two requests, across all callers.
    ///   - cacheSize: How many answers (including "nothing here") to keep, least recently used dropped first.
    ///   - timeout: Seconds before a request fails with `.timeout`, connecting included.
    ///   - clock: Paces requests; tests inject one that does not really sleep.
    ///   - policy: Which addresses the server may be at. Public ones only by default, which is what a deployment
    ///     should keep: coordinates must not be sent to whatever a name on the local network resolves to.
    public init(
        baseURL: URL = URL(string: "https://nominatim.openstreetmap.org")!,
        userAgent: String = "grain-stories/0.1 (+https://github.com/grain-stories)",
        minimumInterval: Duration = .seconds(1),
        cacheSize: Int = 1000,
        timeout: TimeInterval = 10,
        clock: MonotonicClock = .continuous,
        policy: AddressPolicy = .publicOnly
    ) {
        self.baseURL = baseURL
        self.userAgent = userAgent
        self.timeout = .seconds(timeout)
        self.gate = RequestGate(interval: minimumInterval, clock: clock)
        self.cache = Cache(capacity: cacheSize)
        self.searches = Cache(capacity: cacheSize)
        var configuration = OutboundHTTP.Configuration(policy: policy)
        configuration.maximumBodySize = Self.maximumBodySize
        self.http = OutboundHTTP(configuration: configuration)
    }

    /// Looks up the place at a coordinate.
    /// - Parameters:
    ///   - latitude: Degrees north, -90...90.
    ///   - longitude: Degrees east, -180...180.
    /// - Returns: The result, or `nil` when the server knows nothing there (open sea).
    /// - Throws: `NominatimError` for bad coordinates, a non-200 status, a timeout, a connection failure or a
    ///   malformed body; `CancellationError` when the calling task is cancelled while waiting for its turn.
    public func reverse(latitude: Double, longitude: Double) async throws -> NominatimResult? {
        guard let key = CoordinateKey(latitude: latitude, longitude: longitude) else {
            throw NominatimError(.invalidCoordinates, "Nominatim lookup refused: coordinates out of range")
        }
        if let cached = cache.value(for: key) { return cached }
        try await gate.wait()
        // Another caller may have fetched the same point while this one waited for its turn.
        if let cached = cache.value(for: key) { return cached }
        let result = try Self.decode(await fetch(reverseRequest(for: key)))
        cache.insert(result, for: key)
        return result
    }

    /// Searches places by name, as Grain's location search does, under the same pacing as `reverse`.
    ///
    /// Only the text goes to the server, never a position: ranking near the photo is the caller's business.
    /// - Parameters:
    ///   - text: What the person typed; trimmed, and cut to `maximumSearchCharacters`.
    ///   - limit: How many results to ask for, at most `maximumSearchResults`.
    /// - Returns: The results in the server's order (its importance ranking); empty for blank text.
    /// - Throws: `NominatimError` as `reverse` does; `CancellationError` when cancelled while waiting its turn.
    public func search(_ text: String, limit: Int = 5) async throws -> [NominatimResult] {
        let query = String(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(Self.maximumSearchCharacters))
        guard !query.isEmpty else { return [] }
        let limit = max(1, min(limit, Self.maximumSearchResults))
        let key = "\(limit) \(query.lowercased())"
        if let cached = searches.value(for: key) { return cached }
        try await gate.wait()
        if let cached = searches.value(for: key) { return cached }
        let results = try Self.decodeSearch(await fetch(searchRequest(for: query, limit: limit)))
        searches.insert(results, for: key)
        return results
    }

    /// Grain's request, `GET /search?format=json&q=<text>&limit=<n>&addressdetails=1` with our User-Agent.
    func searchRequest(for text: String, limit: Int) -> OutboundRequest {
        // Only unreserved characters stay as they are: `&`, `=`, `+` and `#` in a name must not change the query.
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let q = text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
        return request("search", query: "format=json&q=\(q)&limit=\(limit)&addressdetails=1")
    }

    /// Grain's request, `GET /reverse?format=json&lat=<lat>&lon=<lon>&addressdetails=1` with our User-Agent, at
    /// `zoom=14` (a suburb or neighbourhood) instead of Nominatim's default building level, so the name it gives
    /// is an area's, never a house's or a shop's.
    func reverseRequest(for key: CoordinateKey) -> OutboundRequest {
        request("reverse", query: "format=json&lat=\(key.latitudeText)&lon=\(key.longitudeText)&addressdetails=1&zoom=14")
    }

    /// `GET <baseURL>/<endpoint>?<query>` (the query already percent-encoded) with our User-Agent and timeout.
    private func request(_ endpoint: String, query: String) -> OutboundRequest {
        var components = URLComponents(url: baseURL.appendingPathComponent(endpoint), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = query
        return OutboundRequest(
            url: components.url!, headers: ["User-Agent": userAgent, "Accept": "application/json"], timeout: timeout)
    }
}
