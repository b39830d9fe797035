import Foundation

/// Grain's mapping from a geocoder answer to a story's location label (`formatLocationName` and
/// `extractAddress` in Grain's web app), plus the same shape for the offline table.
public enum PlaceMapping {
    /// Maps a Nominatim answer the way Grain does.
    ///
    /// `locationName`: `result.name` if non-empty; else `"locality, state, country"` from whichever of those
    /// exist (locality = city, town or village; country = the name Nominatim gives, else the upper-cased code);
    /// else the first comma-separated part of `display_name`; else an empty string. `address` only when there
    /// is a `country_code`.
    public static func label(from result: NominatimResult) -> PlaceLabel {
        PlaceLabel(locationName: locationName(result), address: address(result))
    }

    /// Maps an offline place: `"Locality, Region"` (the region dropped when it repeats the locality, as for
    /// city-states) and an address with country, region and locality.
    public static func label(from place: Place) -> PlaceLabel {
        let region = nonEmpty(place.region).flatMap { $0 == place.name ? nil : $0 }
        let name = [place.name, region].compactMap { $0 }.joined(separator: ", ")
        return PlaceLabel(
            locationName: name,
            address: AddressParts(
                country: place.countryCode.uppercased(), region: nonEmpty(place.region), locality: place.name))
    }

    static func locationName(_ result: NominatimResult) -> String {
        if let name = nonEmpty(result.name) { return name }
        if let context = geoContext(result.address) { return context }
        if let display = nonEmpty(result.displayName) {
            let first =
                display.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? display
            return first.trimmingCharacters(in: .whitespaces)
        }
        return ""
    }

    /// Grain's `formatGeoContext`: the locality, state and country that are present, comma-separated.
    static func geoContext(_ address: NominatimResult.Address?) -> String? {
        guard let address else { return nil }
        let country = nonEmpty(address.country) ?? nonEmpty(address.countryCode)?.uppercased()
        let parts = [locality(address), nonEmpty(address.state), country].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// Grain's `extractAddress`, narrowed to a neighbourhood-sized area: country, region and locality only.
    /// Grain also keeps house number, street, postcode and the feature's name; a story's address is public,
    /// and the create form promises no more than the area, so those are never taken.
    static func address(_ result: NominatimResult) -> AddressParts? {
        guard let address = result.address, let code = nonEmpty(address.countryCode) else { return nil }
        return AddressParts(country: code.uppercased(), region: nonEmpty(address.state), locality: locality(address))
    }

    private static func locality(_ address: NominatimResult.Address) -> String? {
        nonEmpty(address.city) ?? nonEmpty(address.town) ?? nonEmpty(address.village)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
