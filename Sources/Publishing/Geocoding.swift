import Foundation
public import Imaging
import Logging
public import Places
import Synchronization

/// Turns a photo's GPS position into a place label. Implementations never log or keep the coordinates.
public protocol Geocoding: Sendable {
    /// The place's name and area as Grain writes them; nil when no source knows it, and the story keeps its cell
    /// without a name rather than failing.
    func label(for position: GPSCoordinate) async -> PlaceLabel?
}

/// Offline, from the GeoNames-derived table of populated places (the default). The table (about
/// 20 MB in memory) is loaded at the first photo with a position, not at start-up, so a server that
/// only shows stories never pays for it.
public final class OfflineGeocoder: Geocoding {
    let path: String
    /// The table once a load was tried: a broken one is reported once and not read again at every photo.
    private let index = Mutex<Result<PlaceIndex, PlaceIndexError>?>(nil)

    /// Takes only the table's path: it is read at the first photo with a position, not here.
    public init(path: String) { self.path = path }

    /// Loads the table at the first call; a table that cannot be read is logged once and names nothing after.
    public func label(for position: GPSCoordinate) async -> PlaceLabel? {
        let loaded: PlaceIndex? = index.withLock { index in
            if index == nil {
                index = Result { () throws(PlaceIndexError) in try PlaceIndex(csvPath: path) }
                if case .failure(let error) = index { log.warning("photos get no place name: \(error)") }
            }
            return try? index?.get()
        }
        return loaded?.nearest(latitude: position.latitude, longitude: position.longitude).map(PlaceMapping.label(from:))
    }
}

/// Nominatim, when the operator asks for it (`--geocoder nominatim`): the coordinates go to that server only.
/// If it fails, the offline table (when present) still names the place.
public struct NominatimGeocoder: Geocoding {
    let client: NominatimClient
    let fallback: OfflineGeocoder?

    /// The client is shared with the place search, so both keep to one pacing; `fallback` names the place when
    /// Nominatim cannot.
    public init(client: NominatimClient, fallback: OfflineGeocoder?) {
        self.client = client
        self.fallback = fallback
    }

    /// Asks Nominatim first, since the operator chose it; the offline table answers only when it fails.
    public func label(for position: GPSCoordinate) async -> PlaceLabel? {
        if let result = try? await client.reverse(latitude: position.latitude, longitude: position.longitude) {
            return PlaceMapping.label(from: result)
        }
        return await fallback?.label(for: position)
    }
}
