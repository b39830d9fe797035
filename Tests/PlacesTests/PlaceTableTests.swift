import Foundation
import Testing

@testable import Places

struct PlaceTableTests {
    @Test("bad rows are skipped and counted while good ones load, quotes and CRLF included")
    func skipsBadRows() throws {
        // setup
        let path = try temporaryCSV(
            "lat,lon,name,admin1,admin2,cc\r\n"
                + "10.5,20.25,Alpha,Region A,,aa\r\n"
                + "not-a-number,20,Bad Latitude,R,,BB\r\n"
                + "95,20,Too Far North,R,,BB\r\n"
                + "10,181,Too Far East,R,,BB\r\n"
                + "10,20,,R,,BB\r\n"
                + "10,20,No Country,R,,\r\n"
                + "10,20,Long Country,R,,BBB\r\n"
                + "10,20\r\n"
                + "\r\n"
                + "6.2,124.83333,\"T\"\"boli\",\"Davao, Region\",,PH\r\n"
                + "-1e1,+5,Exponent,,,CC")
        defer { try? FileManager.default.removeItem(atPath: path) }

        // act
        let index = try PlaceIndex(csvPath: path)

        // validate
        #expect(index.count == 3)
        #expect(index.skippedRows == 7)
        let alpha = try #require(index.nearest(latitude: 10.5, longitude: 20.25))
        #expect(alpha == Place(name: "Alpha", region: "Region A", countryCode: "AA", latitude: 10.5, longitude: 20.25))
        let tboli = try #require(index.nearest(latitude: 6.2, longitude: 124.8))
        #expect(tboli.name == "T\"boli")
        #expect(tboli.region == "Davao, Region")
        let exponent = try #require(index.nearest(latitude: -10, longitude: 5))
        #expect(exponent.name == "Exponent")
        #expect(exponent.region == nil)
        #expect(exponent.latitude == -10)
    }

    @Test("columns are found by header name, in any order, with extra columns ignored")
    func columnsByName() throws {
        let path = try temporaryCSV("cc,extra,name,lon,admin1,lat\nno,x,Oslo,10.74609,Oslo,59.91273\n")
        defer { try? FileManager.default.removeItem(atPath: path) }

        let index = try PlaceIndex(csvPath: path)

        #expect(index.nearest(latitude: 60, longitude: 11)?.name == "Oslo")
        #expect(index.nearest(latitude: 60, longitude: 11)?.countryCode == "NO")
    }

    @Test("a missing file fails with a message naming the path and how to fetch the data")
    func missingFile() {
        let error = #expect(throws: PlaceIndexError.self) {
            try PlaceIndex(csvPath: "/nonexistent/places.csv")
        }
        #expect(error?.kind == .unreadable)
        #expect(error?.description.contains("/nonexistent/places.csv") == true)
        #expect(error?.description.contains("GRAIN_PLACES_CSV") == true)
    }

    @Test("a header without the required columns fails and names them")
    func missingColumns() throws {
        let path = try temporaryCSV("latitude,lon,name,cc\n1,2,X,AA\n")
        defer { try? FileManager.default.removeItem(atPath: path) }

        let error = #expect(throws: PlaceIndexError.self) { try PlaceIndex(csvPath: path) }

        #expect(error?.kind == .missingColumns)
        #expect(error?.description.contains("lat, admin1") == true)
    }

    @Test("a table whose rows are all bad, or that is empty, fails instead of loading nothing")
    func noRows() throws {
        let allBad = try temporaryCSV("lat,lon,name,admin1,admin2,cc\nx,y,Z,,,AA\n")
        let empty = try temporaryCSV("")
        defer {
            try? FileManager.default.removeItem(atPath: allBad)
            try? FileManager.default.removeItem(atPath: empty)
        }

        let badError = #expect(throws: PlaceIndexError.self) { try PlaceIndex(csvPath: allBad) }
        let emptyError = #expect(throws: PlaceIndexError.self) { try PlaceIndex(csvPath: empty) }

        #expect(badError?.kind == .noRows)
        #expect(badError?.description.contains("1 skipped") == true)
        #expect(emptyError?.kind == .noRows)
    }

    @Test("many places at identical coordinates still index and are found")
    func duplicates() throws {
        var text = "lat,lon,name,admin1,admin2,cc\n"
        for i in 0..<50 { text += "1,1,Same\(i),,,AA\n" }
        text += "-40,-70,Other,,,BB\n"
        let path = try temporaryCSV(text)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let index = try PlaceIndex(csvPath: path)

        #expect(index.count == 51)
        #expect(index.nearest(latitude: 1.01, longitude: 1)?.name.hasPrefix("Same") == true)
        #expect(index.nearest(latitude: -39, longitude: -71)?.name == "Other")
    }
}
