/// The parts of a Nominatim `/reverse` or `/search` answer (`format=json&addressdetails=1`) that Grain's mapping
/// reads, with the result's id and position.
public struct NominatimResult: Sendable, Equatable, Decodable {
    /// The address details; fields absent from the answer are `nil`.
    public struct Address: Sendable, Equatable, Decodable {
        public var houseNumber: String?
        public var road: String?
        public var city: String?
        public var town: String?
        public var village: String?
        public var state: String?
        public var postcode: String?
        /// The country's name in the answer's language.
        public var country: String?
        /// ISO 3166-1 alpha-2 in lower case, as Nominatim sends it.
        public var countryCode: String?

        /// Builds address details, e.g. for tests and for results from another geocoder.
        public init(
            houseNumber: String? = nil, road: String? = nil, city: String? = nil, town: String? = nil,
            village: String? = nil, state: String? = nil, postcode: String? = nil, country: String? = nil,
            countryCode: String? = nil
        ) {
            self.houseNumber = houseNumber
            self.road = road
            self.city = city
            self.town = town
            self.village = village
            self.state = state
            self.postcode = postcode
            self.country = country
            self.countryCode = countryCode
        }

        enum CodingKeys: String, CodingKey {
            case houseNumber = "house_number"
            case road, city, town, village, state, postcode, country
            case countryCode = "country_code"
        }
    }

    /// The feature's own name (a shop, a park, a town); often empty for plain addresses.
    public var name: String?
    /// The full comma-separated label.
    public var displayName: String?
    /// The address details, present when `addressdetails=1` was asked for.
    public var address: Address?
    /// Nominatim's own id of the result (`place_id`): stable for a while on one server, not across servers.
    public var placeID: Int?
    /// The result's position as Nominatim sends it, a decimal string (`"48.8565"`).
    var lat: String?
    var lon: String?

    /// Degrees north, when the answer has a readable one in range.
    public var latitude: Double? { lat.flatMap(Double.init).flatMap { (-90.0...90.0).contains($0) ? $0 : nil } }
    /// Degrees east, when the answer has a readable one in range.
    public var longitude: Double? { lon.flatMap(Double.init).flatMap { (-180.0...180.0).contains($0) ? $0 : nil } }

    /// Builds a result, e.g. for tests.
    public init(
        name: String? = nil, displayName: String? = nil, address: Address? = nil, placeID: Int? = nil,
        latitude: Double? = nil, longitude: Double? = nil
    ) {
        self.name = name
        self.displayName = displayName
        self.address = address
        self.placeID = placeID
        lat = latitude.map { String($0) }
        lon = longitude.map { String($0) }
    }

    enum CodingKeys: String, CodingKey {
        case name
        case displayName = "display_name"
        case address
        case placeID = "place_id"
        case lat, lon
    }
}
