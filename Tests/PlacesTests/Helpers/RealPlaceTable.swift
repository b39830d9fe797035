import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Places

/// The real GeoNames-derived table, loaded once per test run and shared by every suite that needs it.
enum RealPlaceTable {
    /// `GRAIN_PLACES_CSV`, else `<repo>/.build/places/cities1000.csv` (where `make places-data` puts it).
    static let path: String = {
        if let path = ProcessInfo.processInfo.environment["GRAIN_PLACES_CSV"], !path.isEmpty { return path }
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Helpers
            .deletingLastPathComponent()  // PlacesTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/places/cities1000.csv").path
    }()

    static let loaded: Result<PlaceIndex, any Error> = Result { try PlaceIndex(csvPath: path) }

    /// The shared index; fails the calling test with the loader's message (which says how to fetch the data).
    static func index() throws -> PlaceIndex {
        try loaded.get()
    }
}

/// A plain linear scan over the same unit vectors, the reference the tree must agree with.
struct BruteForce {
    let coordinates: [Double]

    init(_ places: [Place]) {
        var coordinates: [Double] = []
        coordinates.reserveCapacity(places.count * 3)
        for place in places {
            let vector = UnitVector.from(latitude: place.latitude, longitude: place.longitude)
            coordinates += [vector.x, vector.y, vector.z]
        }
        self.coordinates = coordinates
    }

    /// The smallest squared chord distance from the query to any place.
    func minimumSquaredDistance(latitude: Double, longitude: Double) -> Double {
        let query = UnitVector.from(latitude: latitude, longitude: longitude)
        let (qx, qy, qz) = (query.x, query.y, query.z)
        return coordinates.withUnsafeBufferPointer { buffer in
            var best = Double.infinity
            var i = 0
            while i < buffer.count {
                let dx = buffer[i] - qx
                let dy = buffer[i + 1] - qy
                let dz = buffer[i + 2] - qz
                let squared = dx * dx + dy * dy + dz * dz
                if squared < best { best = squared }
                i += 3
            }
            return best
        }
    }
}

extension BruteForce {
    /// The minimum for each query, computed on Dispatch threads in parallel: the scan is seconds of CPU in a debug
    /// build, and on the cooperative pool it would hold up every other async test.
    func minimumSquaredDistances(_ queries: [(Double, Double)]) async -> [Double] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let chunks = 4
                let results = Mutex([Double](repeating: .nan, count: queries.count))
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    for i in stride(from: chunk, to: queries.count, by: chunks) {
                        let value = minimumSquaredDistance(latitude: queries[i].0, longitude: queries[i].1)
                        results.withLock { $0[i] = value }
                    }
                }
                continuation.resume(returning: results.withLock { $0 })
            }
        }
    }
}

/// Writes `text` to a fresh temporary file and returns its path.
func temporaryCSV(_ text: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString).csv")
    try Data(text.utf8).write(to: url)
    return url.path
}
