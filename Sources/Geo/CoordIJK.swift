/// A position in a face's hexagonal lattice, in the three-axis IJK form the H3 documentation uses
/// (axes 120° apart; the normalized form has no negative component and at least one zero).
struct CoordIJK: Equatable {
    var i: Int
    var j: Int
    var k: Int

    static let zero = CoordIJK(i: 0, j: 0, k: 0)

    /// The normalized equivalent: adding the same amount to all three axes names the same point.
    var normalized: CoordIJK {
        let low = min(i, j, k)
        return CoordIJK(i: i - low, j: j - low, k: k - low)
    }

    static func + (a: CoordIJK, b: CoordIJK) -> CoordIJK {
        CoordIJK(i: a.i + b.i, j: a.j + b.j, k: a.k + b.k).normalized
    }

    static func - (a: CoordIJK, b: CoordIJK) -> CoordIJK {
        CoordIJK(i: a.i - b.i, j: a.j - b.j, k: a.k - b.k).normalized
    }

    func scaled(by factor: Int) -> CoordIJK {
        CoordIJK(i: i * factor, j: j * factor, k: k * factor)
    }

    /// Rotated 60° counter-clockwise: each axis unit moves to the next axis pair (i→ij, j→jk, k→ki).
    var rotatedCCW: CoordIJK {
        CoordIJK(i: i + k, j: i + j, k: j + k).normalized
    }

    /// Rotated 60° clockwise: i→ik, j→ij, k→jk.
    var rotatedCW: CoordIJK {
        CoordIJK(i: i + j, j: j + k, k: i + k).normalized
    }

    /// The digit of a normalized unit vector or the origin; nil for anything else.
    var digit: Int? {
        guard i | j | k <= 1, i >= 0, j >= 0, k >= 0 else { return nil }
        let d = (i << 2) | (j << 1) | k
        return d == 7 ? nil : d
    }

    // Aperture-7 subdivision. A parent unit vector becomes a child vector of length √7, turned by
    // about 19.1° counter-clockwise (Class III children) or clockwise (Class II children).

    /// Children centre of this cell, for a Class III (odd) child resolution.
    var downAp7: CoordIJK {
        (CoordIJK(i: 3, j: 0, k: 1).scaled(by: i) + CoordIJK(i: 1, j: 3, k: 0).scaled(by: j)
            + CoordIJK(i: 0, j: 1, k: 3).scaled(by: k))
    }

    /// Children centre of this cell, for a Class II (even) child resolution.
    var downAp7r: CoordIJK {
        (CoordIJK(i: 3, j: 1, k: 0).scaled(by: i) + CoordIJK(i: 0, j: 3, k: 1).scaled(by: j)
            + CoordIJK(i: 1, j: 0, k: 3).scaled(by: k))
    }

    /// The parent containing this Class III cell: the inverse of `downAp7`, rounded.
    var upAp7: CoordIJK {
        let a = i - k
        let b = j - k
        return CoordIJK(i: Self.divide(3 * a - b, by: 7), j: Self.divide(a + 2 * b, by: 7), k: 0).normalized
    }

    /// The parent containing this Class II cell: the inverse of `downAp7r`, rounded.
    var upAp7r: CoordIJK {
        let a = i - k
        let b = j - k
        return CoordIJK(i: Self.divide(2 * a + b, by: 7), j: Self.divide(3 * b - a, by: 7), k: 0).normalized
    }

    /// Integer division rounded to nearest (halves cannot occur for an odd divisor).
    private static func divide(_ n: Int, by d: Int) -> Int {
        n >= 0 ? (2 * n + d) / (2 * d) : -((-2 * n + d) / (2 * d))
    }
}

extension CoordIJK {
    /// The unit vector of a digit (1 = k, 2 = j, 3 = jk, 4 = i, 5 = ik, 6 = ij): its bits are i, j, k.
    init(digit: Int) {
        self.init(i: (digit >> 2) & 1, j: (digit >> 1) & 1, k: digit & 1)
    }
}
