import ATProto
import Foundation
import Geo
import Imaging
import Lexicon
import Places

/// Assembles the `social.grain.story` record from a processed photo and what the person chose,
/// the way Grain does: an H3 resolution-10 cell and a name for `location`, `address` only when the
/// place has a country, self-labels only when picked. Raw coordinates never enter the record.
enum StoryComposer {
    static let allowedLabels = ["nudity", "sexual", "gore"]

    typealias Choices = StoryPublisher.Choices

    /// A place the person chose in the search wins over the photo's GPS: it is what they said. Either way the
    /// cell is the position's (the place's centre, or the photo's) at resolution 10.
    static func location(gps: GPSCoordinate?, place: PlaceLabel?, choices: Choices) -> (HThreeLocation?, Address?) {
        guard choices.useLocation else { return (nil, nil) }
        let position =
            choices.chosenPlace.map { (latitude: $0.latitude, longitude: $0.longitude) }
            ?? gps.map { (latitude: $0.latitude, longitude: $0.longitude) }
        guard let position, let cell = H3.cell(latitude: position.latitude, longitude: position.longitude, resolution: 10)
        else { return (nil, nil) }
        let place = choices.chosenPlace?.label ?? place
        let typed = choices.locationText.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = typed.isEmpty ? place?.locationName : String(typed.prefix(200))
        // Only the area, and only when the name is the geocoder's: a name the person typed stands alone, so the
        // record never pairs "Grandma's" with the address it was taken at.
        let address = typed.isEmpty ? place?.address.map { Address(country: $0.country, region: $0.region, locality: $0.locality) } : nil
        return (HThreeLocation(value: cell.description, name: name), address)
    }

    static func record(
        blob: BlobRef, width: Int, height: Int, location: HThreeLocation?, address: Address?, labels: [String], createdAt: UTCTime
    ) -> StoryRecord {
        var record = StoryRecord(media: blob, aspectRatio: AspectRatio(width: width, height: height), createdAt: createdAt.iso8601)
        record.location = location
        record.address = location == nil ? nil : address
        let picked = allowedLabels.filter(labels.contains)
        record.labels = picked.isEmpty ? nil : SelfLabels(picked)
        return record
    }
}
