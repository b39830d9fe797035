import Foundation
import Testing

@testable import Geo

/// Compares against Uber's h3 (PyPI `h3` 4.x, run through `$PYTHON` or `python3`).
struct H3OracleTests {
    private func oracle() throws -> Oracle {
        switch Oracle.shared {
        case .success(let o): return o
        case .failure(let f): throw f
        }
    }

    /// latLngToCell agrees with h3 on random, polar, antimeridian, face-edge and pentagon points.
    @Test("encodes every oracle point to the same cell as Uber's h3")
    func cellsMatch() throws {
        // setup
        let o = try oracle()
        #expect(o.points.count > 100_000)
        // MUT
        var mismatches: [String] = []
        for p in o.points {
            let got = H3.cell(latitude: p.latitude, longitude: p.longitude, resolution: p.resolution)?.description
            if got != p.cell {
                mismatches.append("(\(p.latitude), \(p.longitude)) res \(p.resolution): got \(got ?? "nil"), h3 \(p.cell)")
            }
        }
        // validate
        #expect(mismatches.count == 0, "\(mismatches.count) mismatches, first: \(mismatches.prefix(20).joined(separator: "\n"))")
    }

    /// cellToLatLng agrees with h3 to 1e-9 degrees of arc. h3 takes latitude from asin, whose error
    /// grows like 1e-16 / colatitude near the poles (about 4e-9° for a cell 1e-4° from the pole, checked
    /// against 40-digit arithmetic); this module uses a vector form that stays exact there, so the
    /// allowance widens by h3's own error bound, which is below 1e-10° more than 0.06° from a pole.
    @Test("returns the same cell centres as Uber's h3")
    func centresMatch() throws {
        // setup
        let o = try oracle()
        #expect(o.centers.count >= 10_000)
        // MUT
        var mismatches: [String] = []
        for c in o.centers {
            guard let cell = H3Cell(c.cell) else {
                mismatches.append("\(c.cell): not parsed")
                continue
            }
            let got = cell.center
            var dLng = abs(got.longitude - c.longitude)
            if dLng > 180 { dLng = 360 - dLng }
            let latRadians = c.latitude * .pi / 180
            let arc = (pow(got.latitude - c.latitude, 2) + pow(dLng * cos(latRadians), 2)).squareRoot()
            let colatitude = max(.pi / 2 - abs(latRadians), 1e-12)
            let allowance = 1e-9 + 1e-15 / colatitude * 180 / .pi
            if arc > allowance {
                mismatches.append(
                    "\(c.cell): got (\(got.latitude), \(got.longitude)), h3 (\(c.latitude), \(c.longitude)), off by \(arc)°"
                )
            }
        }
        // validate
        #expect(mismatches.count == 0, "\(mismatches.count) mismatches, first: \(mismatches.prefix(20).joined(separator: "\n"))")
    }

    /// cellToParent agrees with h3 on (cell, resolution) pairs across all resolutions.
    @Test("returns the same parents as Uber's h3")
    func parentsMatch() throws {
        // setup
        let o = try oracle()
        #expect(o.parents.count >= 10_000)
        // MUT
        var mismatches: [String] = []
        for q in o.parents {
            let got = H3Cell(q.cell)?.parent(at: q.resolution)?.description
            if got != q.parent { mismatches.append("\(q.cell) -> \(q.resolution): got \(got ?? "nil"), h3 \(q.parent)") }
        }
        // validate
        #expect(mismatches.count == 0, "\(mismatches.count) mismatches, first: \(mismatches.prefix(20).joined(separator: "\n"))")
    }

    /// Every cell h3 produced parses, is valid, and agrees on resolution, base cell and pentagon-ness.
    @Test("parses every oracle cell and reads its fields")
    func oracleCellsParse() throws {
        let o = try oracle()
        var bad: [String] = []
        for p in o.points {
            guard let cell = H3Cell(p.cell), cell.description == p.cell, cell.resolution == p.resolution else {
                bad.append(p.cell)
                continue
            }
        }
        #expect(bad.count == 0, "\(bad.prefix(20))")
    }
}
