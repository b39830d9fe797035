import Foundation
public import Places

/// The create form's place search, whichever source answers it (the offline table, or Nominatim).
public protocol PlaceFinding: Sendable {
    /// Whether the form may search on every pause in typing. Nominatim's public server forbids autocomplete, so
    /// there the form searches only when the person asks.
    var searchesAsYouType: Bool { get }

    /// Gets ready for a search soon (the form calls this when it is shown).
    func prepare()

    /// The best places for `text`, best first; nil when no source can answer.
    /// - Parameter near: Where the photo was taken, roughly: nearer places rank higher where the source can tell.
    func search(_ text: String, near: (latitude: Double, longitude: Double)?) async -> [PlaceCandidate]?

    /// The place a posted form names by its `token`, or nil when it is unknown (a stale page, a restarted server).
    func place(token: String) async -> PlaceCandidate?
}

/// One place a search found: what the form posts back, where it is, and what the story will say.
public struct PlaceCandidate: Sendable, Equatable {
    /// The form's `placeID` value: the GeoNames id, or `n` and Nominatim's `place_id`.
    public var token: String
    /// The place's own centre: the story's H3 cell is computed from it.
    public var latitude: Double
    /// With `latitude`, the position the cell is computed from.
    public var longitude: Double
    /// `location.name` and `address` as Grain would write them for this place.
    public var label: PlaceLabel
    /// A second line that tells apart places of one name (country and population, or the full address).
    public var detail: String
}
