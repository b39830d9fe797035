import Foundation

@testable import Places

/// The real place search table (GeoNames cities1000 with populations and alternate names), mapped once per test
/// run and shared by every suite that needs it.
enum RealPlaceSearch {
    /// `GRAIN_PLACE_NAMES_CSV`, else `<repo>/.build/places/place-names.csv` (where `make places-data` writes it).
    static let path: String = {
        if let path = ProcessInfo.processInfo.environment["GRAIN_PLACE_NAMES_CSV"], !path.isEmpty { return path }
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Helpers
            .deletingLastPathComponent()  // PlacesTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/places/place-names.csv").path
    }()

    static let loaded: Result<PlaceSearch, any Error> = Result { try PlaceSearch(csvPath: path) }

    /// The shared search; fails the calling test with the loader's message (which says how to make the table).
    static func search() throws -> PlaceSearch {
        try loaded.get()
    }
}
