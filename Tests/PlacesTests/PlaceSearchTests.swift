import Foundation
import MappedFiles
import Testing

@testable import Places

/// The place search against the real GeoNames table: what people type on the create form, and what comes first.
@Suite(.serialized) struct PlaceSearchTests {
    @Test(
        "a city's name, any case and with or without its accents, finds that city first",
        arguments: [
            ("paris", 2_988_507, "Paris", "FR"),
            ("PARIS", 2_988_507, "Paris", "FR"),
            ("zurich", 2_657_896, "Zürich", "CH"),
            ("Zürich", 2_657_896, "Zürich", "CH"),
            ("koln", 2_886_242, "Köln", "DE"),
            ("Amsterdam", 2_759_794, "Amsterdam", "NL"),
        ])
    func nameFindsCity(query: String, id: Int, name: String, country: String) throws {
        // setup
        let search = try RealPlaceSearch.search()

        // act
        let first = try #require(search.search(query).first)

        // validate
        #expect(first.id == id)
        #expect(first.place.name == name)
        #expect(first.place.countryCode == country)
    }

    @Test(
        "an alternate name in another language or script finds the city",
        arguments: [("München", 2_867_714), ("cologne", 2_886_242), ("Париж", 2_988_507)])
    func alternateNames(query: String, id: Int) throws {
        let search = try RealPlaceSearch.search()

        let results = search.search(query)

        #expect(results.first?.id == id)
    }

    @Test("the start of a name is enough, and the biggest place with that start comes first")
    func prefix() throws {
        let search = try RealPlaceSearch.search()

        let results = search.search("amster")

        #expect(results.first?.id == 2_759_794)
        #expect(results.allSatisfy { result in result.population <= (results.first?.population ?? 0) || result.id == 2_759_794 })
    }

    @Test(
        "a short start of a name means the places whose own name starts so, before bigger ones with such an alternate",
        arguments: [("pa", 2_988_507), ("lond", 2_643_743), ("reyk", 3_413_829)])
    func shortPrefixPrefersOwnNames(query: String, id: Int) throws {
        let search = try RealPlaceSearch.search()

        let results = search.search(query)

        #expect(results.first?.id == id, "\(results.map(\.place.name))")
    }

    @Test(
        "one or two typos still find the city", arguments: [("londn", 2_643_743), ("amsterdma", 2_759_794), ("barcelnoa", 3_128_760)])
    func typos(query: String, id: Int) throws {
        let search = try RealPlaceSearch.search()

        let results = search.search(query)

        #expect(results.prefix(3).contains { $0.id == id }, "\(results.map(\.place.name))")
    }

    @Test("a region or country after a comma chooses among places of the same name")
    func qualifier() throws {
        let search = try RealPlaceSearch.search()

        let texas = try #require(search.search("paris, texas").first)
        let illinois = try #require(search.search("springfield, illinois").first)
        let canada = try #require(search.search("london, canada").first)

        #expect(texas.id == 4_717_560)
        #expect(texas.place.region == "Texas")
        #expect(illinois.place.name == "Springfield")
        #expect(illinois.place.region == "Illinois")
        #expect(canada.place.countryCode == "CA")
    }

    @Test("near the photo's position, the nearby place of that name outranks the famous one")
    func closeness() throws {
        let search = try RealPlaceSearch.search()

        let nearTexas = search.search("paris", near: (latitude: 33.7, longitude: -95.5))
        let nearFrance = search.search("paris", near: (latitude: 48.9, longitude: 2.4))

        #expect(nearTexas.first?.id == 4_717_560)
        #expect((nearTexas.first?.kilometres ?? 99) < 10)
        #expect(nearFrance.first?.id == 2_988_507)
    }

    @Test("a result's id finds the same place again, as the form posts it back")
    func placeByID() throws {
        let search = try RealPlaceSearch.search()
        let first = try #require(search.search("reykjavik").first)

        let again = try #require(search.place(id: first.id))

        #expect(again.place == first.place)
        #expect(again.place.name == "Reykjavík")
        #expect(search.place(id: -5) == nil)
        #expect(search.place(id: 999_999_999) == nil)
    }

    @Test("text with no letter or digit finds nothing, the limit is honoured, and long input is cut, not refused")
    func edges() throws {
        let search = try RealPlaceSearch.search()

        #expect(search.search("").isEmpty)
        #expect(search.search(" ,.;!").isEmpty)
        #expect(search.search("san", limit: 3).count == 3)
        #expect(search.search("s", limit: 500).count == 50)
        #expect(search.search(String(repeating: "a", count: 10_000)).count <= 8)
        #expect(search.search("xqzvvvqqz").isEmpty)
    }

    @Test("the table loads every place, and each place's name folds to its first key as scripts/place-names.py wrote it")
    func foldingAgreesWithScript() throws {
        let search = try RealPlaceSearch.search()
        var disagreements: [String] = []

        for key in search.table.keys where key.kind == .name {
            let name = search.result(row: Int(key.row), kilometres: nil).place.name
            let written = Array(search.file.bytes[Int(key.start)..<(Int(key.start) + Int(key.length))])
            if SearchKey.fold(name) != written { disagreements.append(name) }
        }

        #expect(search.count > 160_000)
        #expect(search.keyCount > search.count * 3)
        #expect(disagreements.count <= search.count / 10_000, "\(disagreements.prefix(20))")
    }

    @Test("a search takes under 10 ms in a release build (under 300 ms in a debug build on a loaded machine)")
    func speed() throws {
        let search = try RealPlaceSearch.search()
        let queries = ["p", "pa", "par", "paris", "san francisco", "londn", "amsterdma", "springfield, illinois", "zurich"]
        var slowest = Duration.zero
        var report: [String] = []

        for query in queries {
            let clock = ContinuousClock()
            _ = search.search(query)  // warm the pages this query touches
            var times: [Duration] = []
            for _ in 0..<5 { times.append(clock.measure { _ = search.search(query, near: (40.7, -74.0)) }) }
            slowest = max(slowest, times.sorted()[2])
            report.append("\(query): \(times.sorted()[2])")
        }

        #if DEBUG
            #expect(slowest < .milliseconds(300), "medians: \(report.joined(separator: "; "))")
        #else
            #expect(slowest < .milliseconds(10), "medians: \(report.joined(separator: "; "))")
        #endif
    }
}

/// Tables that are not what the script writes: each refused with the file and the reason, or its bad rows skipped.
struct PlaceSearchTableTests {
    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("place-names-\(UUID().uuidString).csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a missing file and a header without the keys column are refused with the path and what is wrong")
    func refused() throws {
        let missing = "/nonexistent/place-names.csv"
        let header = try write("id,lat,lon,population,cc,region,name\n1,1,1,1,FR,,A\n")
        defer { try? FileManager.default.removeItem(atPath: header) }

        #expect(throws: PlaceIndexError.self) { try PlaceSearch(csvPath: missing) }
        do {
            _ = try PlaceSearch(csvPath: header)
            Issue.record("a table without keys loaded")
        } catch {
            #expect(error.kind == .missingColumns)
            #expect(error.description.contains(header))
            #expect(error.description.contains("keys"))
        }
    }

    @Test("malformed rows are skipped and counted; the good ones are searchable, quotes in names included")
    func skipsBadRows() throws {
        let path = try write(
            """
            id,lat,lon,population,cc,region,name,keys
            1,48.85,2.35,2000000,FR,Ile-de-France,Paris,paris
            2,95,2.35,10,FR,,Nowhere,nowhere
            3,10,10,10,FRA,,Bad,bad
            4,10,10,x,FR,,Bad,bad
            5,1,1,50,US,,"Sam ""the"" Town",sam the town
            6,1,1,50,US,,Empty,

            """)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let search = try PlaceSearch(csvPath: path)

        #expect(search.count == 2)
        #expect(search.skippedRows == 4)
        #expect(search.search("par").first?.place.name == "Paris")
        #expect(search.search("town").first?.place.name == "Sam \"the\" Town")
    }
}
