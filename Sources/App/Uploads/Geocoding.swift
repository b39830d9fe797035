import Foundation
public import Imaging
import Logging
public import Places
import Synchronization

/// Turns a photo's GPS position into a place label. Implementations never log or keep the coordinates.
public protocol Geocoding: Sendable {
    func label(for position: GPSCoordinate) async -> PlaceLabel?
}

/// Offline, from the GeoNames-derived table of populated places (the default). The table (about
/// 20 MB in memory) is loaded at the first photo with a position, not at start-up, so a server that
/// only shows stories never pays for it.
public final class OfflineGeocoder: Geocoding {
    let path: String
    /// The table once a load was tried: a broken one is reported once and not read again at every photo.
    private let index = Mutex<Result<PlaceIndex, PlaceIndexError>?>(nil)

    public init(path: String) { self.path = path }

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

    public init(client: NominatimClient, fallback: OfflineGeocoder?) {
        self.client = client
        self.fallback = fallback
    }

    public func label(for position: GPSCoordinate) async -> PlaceLabel? {
        if let result = try? await client.reverse(latitude: position.latitude, longitude: position.longitude) {
            return PlaceMapping.label(from: result)
        }
        return await fallback?.label(for: position)
    }
}
