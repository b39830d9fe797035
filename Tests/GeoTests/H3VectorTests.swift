import Testing

@testable import Geo

struct H3VectorTests {
    /// The Statue of Liberty example from uber/h3 encodes to its published resolution-10 cell.
    @Test("encodes the uber/h3 README example at resolution 10")
    func statueOfLiberty() throws {
        // MUT
        let cell = try #require(H3.cell(latitude: 40.689167, longitude: -74.044444, resolution: 10))
        // validate
        #expect(cell.description == "8a2a1072b59ffff")
        #expect(cell.resolution == 10)
    }

    /// The h3-js README example encodes to its published cell and centre.
    @Test("encodes the h3-js README example and returns its published centre")
    func h3jsExample() throws {
        // MUT
        let cell = try #require(H3.cell(latitude: 37.3615593, longitude: -122.0553238, resolution: 7))
        // validate
        #expect(cell.description == "87283472bffffff")
        let centre = cell.center
        #expect(abs(centre.latitude - 37.35171820183272) < 1e-9)
        #expect(abs(centre.longitude - -122.05032565263946) < 1e-9)
    }

    /// cellToParent keeps the leading digits and pads the rest with 7.
    @Test("finds the resolution-5 parent of a Grain record's cell")
    func parentOfRecordCell() throws {
        // setup
        let cell = try #require(H3Cell("8a283082a677fff"))
        // MUT
        let parent = try #require(cell.parent(at: 5))
        // validate
        #expect(parent.description == "85283083fffffff")
        #expect(cell.baseCell == 20)
        #expect(cell.parent(at: 10) == cell)
        #expect(cell.parent(at: 11) == nil)
        #expect(cell.parent(at: -1) == nil)
        #expect(cell.parent(at: 0)?.description == "8029fffffffffff")
    }

    /// Every base cell sits at rotation 0 in the face-IJK lookup at its own home position.
    @Test("base cell tables agree with each other")
    func baseCellTablesAgree() {
        for base in 0..<122 {
            let face = Int(baseCellHome[base * 4])
            let (i, j, k) = (Int(baseCellHome[base * 4 + 1]), Int(baseCellHome[base * 4 + 2]), Int(baseCellHome[base * 4 + 3]))
            let slot = (face * 27 + i * 9 + j * 3 + k) * 2
            #expect(Int(faceIjkBaseCells[slot]) == base, "base cell \(base)")
            #expect(faceIjkBaseCells[slot + 1] == 0, "base cell \(base)")
        }
    }

    /// The twelve pentagons are flagged, and only their centre children stay pentagons.
    @Test("flags pentagons at every resolution and nothing else")
    func pentagonFlags() throws {
        // setup
        let basePentagons = [
            "8009fffffffffff", "801dfffffffffff", "8031fffffffffff", "804dfffffffffff", "8063fffffffffff",
            "8075fffffffffff", "807ffffffffffff", "8091fffffffffff", "80a7fffffffffff", "80c3fffffffffff",
            "80d7fffffffffff", "80ebfffffffffff",
        ]
        // validate
        for text in basePentagons { #expect(try #require(H3Cell(text)).isPentagon, "\(text)") }
        #expect(try #require(H3Cell("830800fffffffff")).isPentagon)
        #expect(try #require(H3Cell("8408001ffffffff")).isPentagon)
        #expect(try #require(H3Cell("8f7400000000000")).isPentagon)
        #expect(try !#require(H3Cell("8408005ffffffff")).isPentagon)
        #expect(try !#require(H3Cell("8001fffffffffff")).isPentagon)
        #expect(try !#require(H3Cell("8a2a1072b59ffff")).isPentagon)
        let pentagonCells = (0..<122).compactMap { H3Cell(rawValue: 1 << 59 | UInt64($0) << 45 | (1 << 45 - 1)) }
            .filter(\.isPentagon).map(\.description)
        #expect(pentagonCells == basePentagons)
    }

    /// Encoding rejects input it cannot place and tidies input it can.
    @Test("rejects non-finite input and bad resolutions; wraps longitude and clamps latitude")
    func inputHandling() {
        #expect(H3.cell(latitude: .nan, longitude: 0, resolution: 5) == nil)
        #expect(H3.cell(latitude: 0, longitude: .infinity, resolution: 5) == nil)
        #expect(H3.cell(latitude: 0, longitude: 0, resolution: 16) == nil)
        #expect(H3.cell(latitude: 0, longitude: 0, resolution: -1) == nil)
        #expect(
            H3.cell(latitude: 40.689167, longitude: -74.044444 + 720, resolution: 10)?.description
                == "8a2a1072b59ffff"
        )
        #expect(H3.cell(latitude: 95, longitude: 10, resolution: 4) == H3.cell(latitude: 90, longitude: 10, resolution: 4))
    }
}
