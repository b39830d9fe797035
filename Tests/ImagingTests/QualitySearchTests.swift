import Foundation
import ImageFixtures
import Testing

@testable import Imaging

struct QualitySearchTests {
    /// Runs the search against a size function; returns the answer and the number of rounds and encodes.
    static func run(_ size: (Int) -> Int, maxBytes: Int, minimum: Int = 40, maximum: Int = 92) -> (Int?, rounds: Int, encodes: Int) {
        var search = QualitySearch(minimum: minimum, maximum: maximum, maxBytes: maxBytes)
        var rounds = 0
        var encodes = 0
        while case let candidates = search.candidates(), !candidates.isEmpty {
            rounds += 1
            encodes += candidates.count
            for quality in candidates {
                #expect((minimum...maximum).contains(quality))
                #expect(search.sizes[quality] == nil, "quality \(quality) proposed twice")
                search.record(quality: quality, size: size(quality))
            }
            if rounds > 60 { break }
        }
        return (search.bestFitting, rounds, encodes)
    }

    /// What a binary search (or trying every quality) finds.
    static func bruteForce(_ size: (Int) -> Int, maxBytes: Int, minimum: Int = 40, maximum: Int = 92) -> Int? {
        (minimum...maximum).last { size($0) <= maxBytes }
    }

    /// A size curve shaped like libjpeg's on a detailed photo: a power of the quantisation scale.
    static func photoLike(_ a: Double, _ exponent: Double) -> (Int) -> Int {
        { quality in Int(a * exp(exponent * QualitySearch.logScale(quality))) }
    }

    @Test("on photo-like size curves it finds the binary search's answer in at most three rounds")
    func photoCurves() {
        for exponent in [-0.7, -0.9, -1.1] {
            for limit in [300_000, 600_000, 900_000, 1_400_000] {
                let size = Self.photoLike(12_000_000, exponent)
                let (answer, rounds, encodes) = Self.run(size, maxBytes: limit)
                #expect(answer == Self.bruteForce(size, maxBytes: limit), "exponent \(exponent), limit \(limit)")
                #expect(rounds <= 3, "exponent \(exponent), limit \(limit): \(rounds) rounds")
                #expect(encodes <= 6)
            }
        }
    }

    @Test("an image that fits at the maximum quality is settled in the first round")
    func fitsAtOnce() {
        let (answer, rounds, _) = Self.run({ _ in 1_000 }, maxBytes: 900_000)
        #expect(answer == 92 && rounds == 1)
    }

    @Test("an image too big even at the minimum has no answer")
    func neverFits() {
        let (answer, _, _) = Self.run({ 2_000_000 + $0 }, maxBytes: 900_000)
        #expect(answer == nil)
    }

    @Test("any increasing size curve, however unlike the model, gets the binary search's answer")
    func arbitraryCurves() {
        var random = SeededRandom(state: 42)
        for _ in 0..<200 {
            // Random positive steps: monotone but with jumps and plateaus the model does not expect.
            var table: [Int: Int] = [:]
            var total = Int.random(in: 1_000...500_000, using: &random)
            for quality in 1...100 {
                total += Int.random(in: 0...60_000, using: &random) * (Int.random(in: 0...9, using: &random) == 0 ? 20 : 1)
                table[quality] = total
            }
            let limit = Int.random(in: 100_000...3_000_000, using: &random)
            let size = { (quality: Int) in table[quality]! }
            let (answer, rounds, _) = Self.run(size, maxBytes: limit)
            #expect(answer == Self.bruteForce(size, maxBytes: limit))
            #expect(rounds <= 30)
        }
    }
}

extension QualitySearchTests {
    @Test("estimates from a sample steer the first real round, which then settles a photo-like curve")
    func estimatesSteer() {
        let size = Self.photoLike(12_000_000, -0.9)
        var search = QualitySearch(minimum: 40, maximum: 92, maxBytes: 900_000)
        // A sample that overestimates by 5%, as stripes of a busier part of the photo might.
        for quality in search.sampleQualities { search.record(quality: quality, estimatedSize: size(quality) * 105 / 100) }

        let first = search.candidates()
        for quality in first { search.record(quality: quality, size: size(quality)) }
        while case let more = search.candidates(), !more.isEmpty {
            for quality in more { search.record(quality: quality, size: size(quality)) }
        }

        #expect(first.count == 2)
        #expect(search.bestFitting == Self.bruteForce(size, maxBytes: 900_000))
        #expect(search.sizes.count <= 4)
    }

    @Test("a stripe sample keeps whole 16-row stripes and scales back to the image's height")
    func stripeSample() throws {
        let image = TestImages.gradient(width: 1000, height: 1500)

        let sample = try #require(image.stripeSample())

        #expect(sample.image.width == 1000 && sample.image.height % 16 == 0)
        #expect(abs(Double(sample.image.height) * sample.scale - 1500) < 1e-9)
        #expect(Array(sample.image.pixels[0..<3000]) == Array(image.pixels[0..<3000]))
        #expect(TestImages.gradient(width: 100, height: 100).stripeSample() == nil)
    }
}
