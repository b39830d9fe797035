import Imaging
import Lexicon
import Places
import Testing

@testable import App

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
}
