import Foundation
import Geo
import HTTPServer
import Places
import Publishing

/// The create form's place search: the results step of the form (server-rendered, so it works without a script),
/// its JSON twin for the script, and the place a posted form names.
extension StoryWrites {
    /// One place the form offers, as the template and the script show it.
    struct PlaceOption: Encodable, Equatable {
        /// The place's token (`PlaceCandidate.token`), posted back as `placeID`.
        var id: String
        /// `Name, Region`: what the story's location will read.
        var name: String
        /// The country and population, to tell apart places of one name.
        var detail: String
        var checked = false
    }

    /// The place-search part of the create form's model.
    struct PlaceStep: Encodable {
        /// Whether this server can search for places.
        var available: Bool
        /// Whether the script may search on every pause in typing (not through Nominatim's public server).
        var asYouType = true
        /// What was searched for, shown again in the search field.
        var query = ""
        var results: [PlaceOption] = []
        /// A sentence when a search found nothing or could not run.
        var note: String?
    }

    /// A form field's value as a query: trimmed and cut, never refused.
    static func placeQuery(_ raw: String?) -> String {
        String((raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(PlaceFinder.maximumQueryCharacters))
    }

    /// The centre of a `near` area the form's script sends back: an H3 cell of `StoryPublisher.nearResolution`
    /// (what `/api/inspect` answers) or coarser, else nil. A finer cell would be a more exact position than the
    /// search needs.
    static func nearArea(_ raw: String?) -> (latitude: Double, longitude: Double)? {
        guard let raw, raw.utf8.count <= 16, let cell = H3Cell(raw), cell.resolution <= StoryPublisher.nearResolution else { return nil }
        return cell.center
    }

    /// The results step for `query` (empty shows only the field), with `chosen` ticked and kept in the list.
    func placeStep(
        query: String, chosen: PlaceCandidate? = nil, near: (latitude: Double, longitude: Double)? = nil
    ) async -> PlaceStep {
        guard let places else { return PlaceStep(available: false) }
        places.prepare()
        var step = PlaceStep(available: true, asYouType: places.searchesAsYouType, query: query)
        var found: [PlaceCandidate] = []
        if !query.isEmpty {
            guard let results = await places.search(query, near: near) else {
                step.available = false
                return step
            }
            found = results
            if results.isEmpty { step.note = "No place matches “\(query)”. Try another spelling, or a bigger place nearby." }
        }
        if let chosen, !found.contains(where: { $0.token == chosen.token }) { found.insert(chosen, at: 0) }
        step.results = found.map { candidate in
            PlaceOption(
                id: candidate.token, name: candidate.label.locationName, detail: candidate.detail,
                checked: candidate.token == chosen?.token)
        }
        return step
    }

    /// What the form's `placeID` names: nil for none, or a refusal sentence when it names no place we know.
    func chosenPlace(_ context: RequestContext) async -> Result<PlaceCandidate?, ChosenPlaceMissing> {
        let raw = (context.form["placeID"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !raw.isEmpty else { return .success(nil) }
        guard raw.utf8.count <= 24, let places, let found = await places.place(token: raw) else {
            return .failure(ChosenPlaceMissing())
        }
        return .success(found)
    }

    /// A posted place id that the table does not hold (a stale page, or a table that changed).
    struct ChosenPlaceMissing: Error {
        let description = "The place you chose is not in this server's list any more. Search for it again, then post."
    }

    /// One place as the script's JSON shows it.
    struct PlacesAnswer: Encodable {
        var available: Bool
        var places: [PlaceOption]
    }

    /// `GET /api/places?q=…[&near=<H3 cell>]`: the same results as the form's step, for the script, ranked by
    /// closeness to the photo's area when the script has it from `/api/inspect`. Signed-in visitors only: it is
    /// part of the create form, not a public geocoding service.
    func placesData(_ context: RequestContext) async throws -> Response {
        guard context.session != nil else { throw HTTPError(.unauthorized, "Sign in to search for places.") }
        let step = await placeStep(query: Self.placeQuery(context.query("q")), near: Self.nearArea(context.query("near")))
        var response = Response.json(PlacesAnswer(available: step.available, places: step.results))
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
