import Foundation
import Imaging
import Places

/// Turns a photo's GPS position into a place label. Implementations never log or keep the coordinates.
protocol Geocoding: Sendable {
    func label(for position: GPSCoordinate) async -> PlaceLabel?
}

/// Offline, from the GeoNames-derived table of populated places (the default).
struct OfflineGeocoder: Geocoding {
    let index: PlaceIndex

    func label(for position: GPSCoordinate) async -> PlaceLabel? {
        index.nearest(latitude: position.latitude, longitude: position.longitude).map(PlaceMapping.label(from:))
    }
}

/// Nominatim, when the operator asks for it (`--geocoder nominatim`): the coordinates go to that server only.
/// If it fails, the offline table (when present) still names the place.
struct NominatimGeocoder: Geocoding {
    let client: NominatimClient
    let fallback: OfflineGeocoder?

    func label(for position: GPSCoordinate) async -> PlaceLabel? {
        if let result = try? await client.reverse(latitude: position.latitude, longitude: position.longitude) {
            return PlaceMapping.label(from: result)
        }
        return await fallback?.label(for: position)
    }
}
