/// What a story records about where it was taken: the values behind the lexicon's `location.name` and
/// `address` (the H3 cell for `location.value` is computed elsewhere, from the same coordinate).
public struct PlaceLabel: Sendable, Equatable {
    /// `location.name`: a short human label.
    public var locationName: String
    /// `address`, or `nil` when the source gave no country (the lexicon requires one).
    public var address: AddressParts?

    /// - Parameters:
    ///   - locationName: The short label.
    ///   - address: The structured address, if any.
    public init(locationName: String, address: AddressParts?) {
        self.locationName = locationName
        self.address = address
    }
}

/// The fields of the lexicon's `address` object.
public struct AddressParts: Sendable, Equatable {
    /// ISO 3166-1 alpha-2, upper case.
    public var country: String
    public var postalCode: String?
    public var region: String?
    public var locality: String?
    public var street: String?
    public var name: String?

    /// - Parameters:
    ///   - country: ISO 3166-1 alpha-2, upper case.
    ///   - postalCode: The postal code.
    ///   - region: State, province or region.
    ///   - locality: City, town or village.
    ///   - street: `"<house number> <road>"` or the road alone.
    ///   - name: The feature's own name.
    public init(
        country: String, postalCode: String? = nil, region: String? = nil, locality: String? = nil,
        street: String? = nil, name: String? = nil
    ) {
        self.country = country
        self.postalCode = postalCode
        self.region = region
        self.locality = locality
        self.street = street
        self.name = name
    }
}
