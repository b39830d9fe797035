import Caching
import Foundation
import Logging
public import Places

/// The create form's place search through Nominatim (`--geocoder nominatim`), as Grain's location search does it:
/// the typed text goes to that server (never the photo's position), through the same client, pacing and cache as
/// the reverse lookups. When Nominatim fails, the offline table answers if the server has it.
public final class NominatimPlaceFinder: PlaceFinding {
    let client: NominatimClient
    let fallback: PlaceFinder?
    /// What recent searches offered, by token: a posted choice is taken from here, so choosing costs no request
    /// and a form cannot name a place this server never offered.
    private let offered = Cache<String, PlaceCandidate>(capacity: 2000)

    /// The most results asked for (Grain asks for five; the form shows up to eight).
    static let maximumResults = 8

    /// The client is the reverse lookups' own, so searches share its pacing and cache; `fallback` answers when
    /// Nominatim does not.
    public init(client: NominatimClient, fallback: PlaceFinder?) {
        self.client = client
        self.fallback = fallback
    }

    /// Nominatim's usage policy forbids searching as someone types.
    public var searchesAsYouType: Bool { false }

    /// Nominatim needs no warming; the offline fallback does, so a failed search does not wait for its table.
    public func prepare() { fallback?.prepare() }

    /// Remembers what it offered, so the place a form then posts is taken from here without a second request.
    public func search(_ text: String, near: (latitude: Double, longitude: Double)?) async -> [PlaceCandidate]? {
        do {
            let candidates = try await client.search(text, limit: Self.maximumResults).compactMap(Self.candidate)
            for candidate in candidates { offered.insert(candidate, for: candidate.token) }
            return candidates
        } catch {
            // The text someone searched for is theirs: the log says only that the search failed.
            log.warning("Nominatim place search failed, using the offline table: \(error)")
            return await fallback?.search(text, near: near)
        }
    }

    /// A Nominatim token is honoured only when this server offered it; a GeoNames id goes to the offline table.
    public func place(token: String) async -> PlaceCandidate? {
        if token.hasPrefix("n") { return offered.value(for: token) }
        return await fallback?.place(token: token)
    }

    /// A search result as the form offers it, with Grain's mapping of a Nominatim answer.
    static func candidate(_ result: NominatimResult) -> PlaceCandidate? {
        guard let id = result.placeID, let latitude = result.latitude, let longitude = result.longitude else { return nil }
        let label = PlaceMapping.label(from: result)
        let detail = String((result.displayName ?? label.locationName).prefix(160))
        return PlaceCandidate(token: "n\(id)", latitude: latitude, longitude: longitude, label: label, detail: detail)
    }
}
