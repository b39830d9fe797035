import Geo
import Imaging
import Lexicon
import Places
import Testing

@testable import Publishing

@Suite struct StoryComposerTests {
    static let gps = GPSCoordinate(latitude: 48.8566, longitude: 2.3522)
    static let place = PlaceLabel(
        locationName: "Le Marais",
        address: AddressParts(country: "FR", postalCode: "75004", region: "Île-de-France", locality: "Paris", street: "4 Rue X", name: "Chez nous"))

    @Test("a geocoded place gives the record the area only: no street, postcode or feature name")
    func recordKeepsTheArea() {
        let (location, address) = StoryComposer.location(gps: Self.gps, place: Self.place, choices: StoryPublisher.Choices())
        #expect(location?.name == "Le Marais")
        #expect(address == Address(country: "FR", region: "Île-de-France", locality: "Paris"))
    }

    @Test("a place name the person typed stands alone: the record carries no address to pair it with")
    func typedNameDropsTheAddress() {
        var choices = StoryPublisher.Choices()
        choices.locationText = "Grandma's kitchen"
        let (location, address) = StoryComposer.location(gps: Self.gps, place: Self.place, choices: choices)
        #expect(location?.name == "Grandma's kitchen")
        #expect(address == nil)
    }

    static let reykjavik = PlaceFinder.candidate(
        PlaceSearchResult(
            id: 3_413_829, place: Place(name: "Reykjavík", region: "Capital Region", countryCode: "IS", latitude: 64.13548, longitude: -21.89541),
            population: 118_918))

    @Test("a place chosen in the search gives a photo without GPS the place's resolution-10 cell, name and area")
    func chosenPlaceWithoutGPS() {
        var choices = StoryPublisher.Choices()
        choices.chosenPlace = Self.reykjavik

        let (location, address) = StoryComposer.location(gps: nil, place: nil, choices: choices)

        #expect(location?.value == H3.cell(latitude: 64.13548, longitude: -21.89541, resolution: 10)?.description)
        #expect(location?.value.hasPrefix("8a") == true)
        #expect(location?.name == "Reykjavík, Capital Region")
        #expect(address == Address(country: "IS", region: "Capital Region", locality: "Reykjavík"))
    }

    @Test("a chosen place replaces the photo's own GPS position and place; unticking the location drops both")
    func chosenPlaceWinsOverGPS() {
        var choices = StoryPublisher.Choices()
        choices.chosenPlace = Self.reykjavik

        let (location, address) = StoryComposer.location(gps: Self.gps, place: Self.place, choices: choices)
        choices.useLocation = false
        let (none, noAddress) = StoryComposer.location(gps: Self.gps, place: Self.place, choices: choices)

        #expect(location?.value == H3.cell(latitude: 64.13548, longitude: -21.89541, resolution: 10)?.description)
        #expect(location?.name == "Reykjavík, Capital Region")
        #expect(address?.country == "IS")
        #expect(none == nil)
        #expect(noAddress == nil)
    }

    @Test("a place chosen from a Nominatim search is written with Grain's mapping of that answer, at its own position")
    func chosenNominatimPlace() throws {
        let result = NominatimResult(
            name: "Hôtel de Ville", displayName: "Hôtel de Ville, Place de l'Hôtel de Ville, Paris, Île-de-France, 75004, France",
            address: NominatimResult.Address(
                houseNumber: "4", road: "Place de l'Hôtel de Ville", city: "Paris", state: "Île-de-France", postcode: "75004",
                country: "France", countryCode: "fr"),
            placeID: 88_066_702, latitude: 48.8565, longitude: 2.3521)
        let candidate = try #require(NominatimPlaceFinder.candidate(result))
        var choices = StoryPublisher.Choices()
        choices.chosenPlace = candidate

        let (location, address) = StoryComposer.location(gps: nil, place: nil, choices: choices)

        #expect(candidate.token == "n88066702")
        #expect(location?.value == H3.cell(latitude: 48.8565, longitude: 2.3521, resolution: 10)?.description)
        #expect(location?.name == "Hôtel de Ville")
        #expect(address == Address(country: "FR", region: "Île-de-France", locality: "Paris"))
    }

    @Test("without GPS and without a chosen place there is no location, whatever was typed")
    func nothingToLocate() {
        var choices = StoryPublisher.Choices()
        choices.locationText = "Somewhere"

        let (location, address) = StoryComposer.location(gps: nil, place: nil, choices: choices)

        #expect(location == nil)
        #expect(address == nil)
    }
}
