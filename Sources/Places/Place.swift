/// A populated place from the offline table: the answer to "where is this?" without asking anyone.
public struct Place: Sendable, Equatable {
    /// The locality's name as GeoNames spells it in ASCII, e.g. `Reykjavik`.
    public var name: String
    /// The first-level administrative division (state, region, province), when the table has one.
    public var region: String?
    /// ISO 3166-1 alpha-2, upper case.
    public var countryCode: String
    /// The place's own latitude in degrees, not the query's.
    public var latitude: Double
    /// The place's own longitude in degrees, not the query's.
    public var longitude: Double

    /// - Parameters:
    ///   - name: The locality.
    ///   - region: The first-level division, or `nil`.
    ///   - countryCode: ISO 3166-1 alpha-2 (upper-cased here).
    ///   - latitude: Degrees north.
    ///   - longitude: Degrees east.
    public init(name: String, region: String?, countryCode: String, latitude: Double, longitude: Double) {
        self.name = name
        self.region = region
        // Codes from the table are already upper case; skipping `uppercased()` for them keeps loading fast.
        self.countryCode =
            countryCode.utf8.contains(where: { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) })
            ? countryCode.uppercased() : countryCode
        self.latitude = latitude
        self.longitude = longitude
    }
}
