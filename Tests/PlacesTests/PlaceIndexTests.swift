import Foundation
import TestSupport
import Testing

@testable import Places

/// Serialized so that at most one cooperative thread waits for the shared table to load, and the CPU-heavy linear
/// scan does not starve the live-server suites running beside it.
@Suite(.serialized) struct PlaceIndexTests {
    @Test(
        "known coordinates resolve to their city, region and country",
        arguments: [
            (48.8566, 2.3522, "Paris", "Ile-de-France", "FR"),
            (-33.8688, 151.2093, "Sydney", "New South Wales", "AU"),
            (64.1466, -21.9426, "Reykjavik", "Capital Region", "IS"),
        ])
    func knownCities(latitude: Double, longitude: Double, name: String, region: String, country: String) throws {
        // setup
        let index = try RealPlaceTable.index()

        // act
        let place = try #require(index.nearest(latitude: latitude, longitude: longitude))

        // validate
        #expect(place.name == name)
        #expect(place.region == region)
        #expect(place.countryCode == country)
    }

    @Test("the Statue of Liberty resolves to a place in New York or New Jersey, US, within 10 km")
    func statueOfLiberty() throws {
        let index = try RealPlaceTable.index()

        let hit = try #require(index.nearestWithDistance(latitude: 40.689167, longitude: -74.044444))

        #expect(hit.place.countryCode == "US")
        #expect(["New York", "New Jersey"].contains(hit.place.region ?? ""))
        #expect(hit.kilometres < 10)
    }

    @Test(
        "points beside the antimeridian resolve to the true nearest place on the other side",
        arguments: [
            (-16.8, -179.99, "Lambasa", "FJ", 179.38333),
            (-16.8, 179.99, "Lambasa", "FJ", 179.38333),
            (65.9, 179.99, "Egvekinot", "RU", -179.12198),
            (0.0, -180.0, "Kulia Village", "TV", 177.33393),
        ])
    func antimeridian(
        latitude: Double, longitude: Double, name: String, country: String, placeLongitude: Double
    )
        throws
    {
        let index = try RealPlaceTable.index()

        let place = try #require(index.nearest(latitude: latitude, longitude: longitude))

        #expect(place.name == name)
        #expect(place.countryCode == country)
        #expect(place.longitude == placeLongitude)
    }

    @Test("points at and near the north pole resolve to the northernmost settlement, Longyearbyen")
    func northPole() throws {
        let index = try RealPlaceTable.index()

        let places = [(90.0, 0.0), (89.99, 135.0), (89.5, -120.0)].compactMap {
            index.nearest(latitude: $0.0, longitude: $0.1)
        }

        #expect(places.count == 3)
        #expect(places.allSatisfy { $0.name == "Longyearbyen" && $0.countryCode == "SJ" })
    }

    @Test("near the south pole the answer is an Antarctic station, with no region")
    func southPole() throws {
        let index = try RealPlaceTable.index()

        let place = try #require(index.nearest(latitude: -89, longitude: 0))

        #expect(place.countryCode == "AQ")
        #expect(place.region == nil)
    }

    @Test("the tree agrees with a linear scan on 2,000 random points, half of them near real places")
    func agreesWithBruteForce() async throws {
        // setup
        let index = try RealPlaceTable.index()
        let scan = BruteForce(index.places)
        var random = SeededGenerator(seed: 20_261_201)
        var queries: [(Double, Double)] = []
        for i in 0..<2_000 {
            if i.isMultiple(of: 2) {
                queries.append(
                    (
                        asin(Double.random(in: -1...1, using: &random)) * 180 / .pi,
                        Double.random(in: -180..<180, using: &random)
                    ))
            } else {
                let near = index.places[Int.random(in: 0..<index.count, using: &random)]
                queries.append(
                    (
                        min(90, max(-90, near.latitude + Double.random(in: -0.2...0.2, using: &random))),
                        near.longitude + Double.random(in: -0.2...0.2, using: &random)
                    ))
            }
        }

        // act
        var found: [Vector3] = []
        for (latitude, longitude) in queries {
            let place = try #require(index.nearest(latitude: latitude, longitude: longitude))
            found.append(UnitVector.from(latitude: place.latitude, longitude: place.longitude))
        }

        // validate
        let reference = await scan.minimumSquaredDistances(queries)
        var mismatches = 0
        for (i, (latitude, longitude)) in queries.enumerated() {
            let query = UnitVector.from(latitude: latitude, longitude: longitude)
            if found[i].squaredDistance(to: query) != reference[i] { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test("the real table loads about 144k places and skips only its two nameless rows")
    func realTableSize() throws {
        let index = try RealPlaceTable.index()

        #expect(index.count > 140_000)
        // Two GeoNames rows (in RU and SY) have an empty name.
        #expect(index.skippedRows == 2)
    }

    @Test("a latitude outside -90...90 or a non-finite coordinate has no nearest place")
    func invalidQueries() throws {
        let index = try RealPlaceTable.index()

        #expect(index.nearest(latitude: 91, longitude: 0) == nil)
        #expect(index.nearest(latitude: .nan, longitude: 0) == nil)
        #expect(index.nearest(latitude: 0, longitude: .infinity) == nil)
    }
}
