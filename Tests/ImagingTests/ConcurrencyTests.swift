import ImageFixtures
import Imaging
import Testing

struct ConcurrencyTests {
    @Test("many tasks decoding, resizing and encoding at once get the same results as one at a time")
    func concurrentPipelines() async throws {
        // setup
        let sources = try (0..<8).map { i in
            try Imaging.encodeJPEG(TestImages.checker(width: 120 + i * 8, height: 90, cell: 3 + i), quality: 85)
        }
        func process(_ jpeg: [UInt8]) throws -> [UInt8] {
            let image = try Imaging.decode(jpeg, atLeast: (40, 30)).resized(width: 40, height: 30)
            return try Imaging.encodeJPEG(image.oriented(exifOrientation: 6), quality: 80)
        }
        let expected = try sources.map(process)

        // MUT
        let results = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for _ in 0..<4 {
                for (i, jpeg) in sources.enumerated() {
                    group.addTask { (i, try process(jpeg)) }
                }
            }
            var collected: [(Int, [UInt8])] = []
            for try await result in group { collected.append(result) }
            return collected
        }

        // validate
        #expect(results.count == 32)
        for (i, output) in results {
            #expect(output == expected[i])
        }
    }
}
