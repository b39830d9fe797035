import Foundation
import Logging
import Places
import Synchronization
import Units

/// The create form's place search over the offline GeoNames table. The table is mapped at the first search, on a
/// task of its own, not at start-up: a server that only shows stories never pays for it, and searches that arrive
/// while it loads wait for the same load.
public final class PlaceFinder: PlaceFinding {
    let path: String
    private let loading = Mutex<Task<PlaceSearch?, Never>?>(nil)

    /// The most results a search returns (the form shows eight).
    static let maximumResults = 8
    /// What is read of a query: longer text is cut, never refused (no place name is this long). Public so the
    /// form shows the query as it was searched.
    public static let maximumQueryCharacters = 100

    /// Takes only the table's path: nothing is read until the first search, so a server that never searches pays
    /// nothing.
    public init(path: String) { self.path = path }

    /// The mapped table, or nil when it cannot be read (logged once, by the load).
    func table() async -> PlaceSearch? {
        let task = loading.withLock { task in
            if let task { return task }
            let path = path
            let started = Task { await Self.load(path) }
            task = started
            return started
        }
        return await task.value
    }

    /// The table answers in well under 10 ms.
    public var searchesAsYouType: Bool { true }

    /// Starts mapping the table without waiting for it: the create form calls this, so the table is ready by the
    /// time someone types a place.
    public func prepare() {
        Task { _ = await table() }
    }

    /// Maps and indexes the table on a Dispatch thread: it is a second of CPU work (several in a debug build), which
    /// on Swift's cooperative pool would hold one of its few threads away from every request.
    static func load(_ path: String) async -> PlaceSearch? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do {
                    continuation.resume(returning: try PlaceSearch(csvPath: path))
                } catch {
                    log.warning("place search is unavailable: \(error)")
                    continuation.resume(returning: nil)
                }
            }
        }
    }

    /// The best places for `text`, best first; nil when the table is unavailable.
    /// - Parameter near: Where the photo was taken, roughly: nearer places rank higher.
    func search(
        _ text: String, near: (latitude: Double, longitude: Double)? = nil, limit: Int = PlaceFinder.maximumResults
    ) async -> [PlaceSearchResult]? {
        guard let table = await table() else { return nil }
        return table.search(String(text.prefix(Self.maximumQueryCharacters)), near: near, limit: min(limit, Self.maximumResults))
    }

    /// The form's search, at most `maximumResults` places, as candidates it can offer and post back.
    public func search(_ text: String, near: (latitude: Double, longitude: Double)?) async -> [PlaceCandidate]? {
        await search(text, near: near, limit: Self.maximumResults)?.map(Self.candidate)
    }

    /// The place a form posted back by its GeoNames id.
    func place(id: Int) async -> PlaceSearchResult? {
        await table()?.place(id: id)
    }

    /// A posted token is read only when it is a GeoNames id's digits, so a form cannot make the table parse anything
    /// else.
    public func place(token: String) async -> PlaceCandidate? {
        guard token.utf8.count <= 10, token.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let id = Int(token) else { return nil }
        return await place(id: id).map(Self.candidate)
    }

    static func candidate(_ result: PlaceSearchResult) -> PlaceCandidate {
        let country = Locale(identifier: "en_US").localizedString(forRegionCode: result.place.countryCode) ?? result.place.countryCode
        let detail = result.population > 0 ? "\(country), population \(result.population.groupedDigits)" : country
        return PlaceCandidate(
            token: String(result.id), latitude: result.place.latitude, longitude: result.place.longitude,
            label: PlaceMapping.label(from: result.place), detail: detail)
    }
}
