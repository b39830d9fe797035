import Foundation
import Testing

@testable import Places

struct PlaceMappingTests {
    typealias Address = NominatimResult.Address

    @Test(
        "location.name follows formatLocationName: name, else locality-state-country, else display_name's first part",
        arguments: [
            (
                NominatimResult(
                    name: "Eiffel Tower", displayName: "Eiffel Tower, Paris", address: Address(city: "Paris")),
                "Eiffel Tower"
            ),
            (
                NominatimResult(
                    name: "", displayName: "1, Rue X, Paris",
                    address: Address(city: "Paris", state: "Île-de-France", country: "France")),
                "Paris, Île-de-France, France"
            ),
            (NominatimResult(address: Address(town: "Hofn", state: "East", countryCode: "is")), "Hofn, East, IS"),
            (NominatimResult(address: Address(city: "", town: "", village: "Vik", country: "Iceland")), "Vik, Iceland"),
            (
                NominatimResult(address: Address(state: "Bavaria", country: "Germany", countryCode: "de")),
                "Bavaria, Germany"
            ),
            (
                NominatimResult(displayName: "Some Road, Somewhere, Nowhere", address: Address(road: "Some Road")),
                "Some Road"
            ),
            (NominatimResult(displayName: "Open Sea"), "Open Sea"),
            (NominatimResult(), ""),
        ])
    func locationName(result: NominatimResult, expected: String) {
        #expect(PlaceMapping.label(from: result).locationName == expected)
    }

    @Test("the address keeps a neighbourhood-sized area only: country, state and locality, never house, street, postcode or name")
    func addressKeepsTheAreaOnly() {
        // setup
        let result = NominatimResult(
            name: "Hôtel de Ville", displayName: "Hôtel de Ville, …",
            address: Address(
                houseNumber: "4", road: "Place de l'Hôtel de Ville", city: "Paris", town: "Ignored",
                state: "Île-de-France", postcode: "75004", country: "France", countryCode: "fr"))

        // act
        let label = PlaceMapping.label(from: result)

        // validate
        #expect(label.address == AddressParts(country: "FR", region: "Île-de-France", locality: "Paris"))
        #expect(label.address?.street == nil && label.address?.postalCode == nil && label.address?.name == nil)
    }

    @Test("locality prefers city, then town, then village")
    func localityOrder() {
        let town = NominatimResult(address: Address(town: "T", village: "V", countryCode: "gb"))
        let village = NominatimResult(address: Address(village: "V", countryCode: "gb"))

        #expect(PlaceMapping.label(from: town).address?.locality == "T")
        #expect(PlaceMapping.label(from: village).address?.locality == "V")
    }

    @Test("without a country_code there is no address, even when other parts exist")
    func noCountryNoAddress() {
        let results = [
            NominatimResult(name: "X", address: Address(road: "R", city: "C", country: "France")),
            NominatimResult(name: "X", address: Address(city: "C", countryCode: "")),
            NominatimResult(name: "X"),
        ]

        #expect(results.map { PlaceMapping.label(from: $0).address } == [nil, nil, nil])
    }

    @Test("an offline place becomes 'Locality, Region' with a country, region and locality address")
    func offlinePlace() {
        let place = Place(name: "Reykjavik", region: "Capital Region", countryCode: "IS", latitude: 64, longitude: -22)

        let label = PlaceMapping.label(from: place)

        #expect(
            label
                == PlaceLabel(
                    locationName: "Reykjavik, Capital Region",
                    address: AddressParts(country: "IS", region: "Capital Region", locality: "Reykjavik")))
    }

    @Test("an offline place drops a region equal to the locality, or a missing one, from the name")
    func offlineRegionDropped() {
        let cityState = Place(
            name: "Singapore", region: "Singapore", countryCode: "SG", latitude: 1.3, longitude: 103.8)
        let noRegion = Place(name: "McMurdo Station", region: nil, countryCode: "AQ", latitude: -77.8, longitude: 166.7)

        #expect(PlaceMapping.label(from: cityState).locationName == "Singapore")
        #expect(PlaceMapping.label(from: cityState).address?.region == "Singapore")
        #expect(PlaceMapping.label(from: noRegion).locationName == "McMurdo Station")
        #expect(PlaceMapping.label(from: noRegion).address == AddressParts(country: "AQ", locality: "McMurdo Station"))
    }

    @Test("a Nominatim answer decodes from its JSON field names, unknown fields ignored")
    func decoding() throws {
        let json =
            #"{"name":"","display_name":"A, B","extra":1,"address":{"house_number":"1","country_code":"nz","suburb":"S"}}"#

        let result = try #require(try NominatimClient.decode(Data(json.utf8)))

        #expect(
            result
                == NominatimResult(name: "", displayName: "A, B", address: Address(houseNumber: "1", countryCode: "nz"))
        )
        #expect(try NominatimClient.decode(Data(#"{"error":"Unable to geocode"}"#.utf8)) == nil)
    }
}
