import Foundation

/// Points on the unit sphere. The straight-line (chord) distance between two of them grows monotonically with
/// their great-circle distance, so a nearest-neighbour search in 3D is exact on the sphere, with no seam at the
/// antimeridian and no singularity at the poles.
enum UnitVector {
    static func from(latitude: Double, longitude: Double) -> Vector3 {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        let cosPhi = cos(phi)
        return Vector3(x: cosPhi * cos(lambda), y: cosPhi * sin(lambda), z: sin(phi))
    }

    /// The great-circle distance in kilometres (mean Earth radius) for a squared chord length.
    static func kilometres(squaredChord: Double) -> Double {
        2 * asin(min(1, sqrt(squaredChord) / 2)) * 6371.0088
    }
}

/// A plain 3-vector. Not `SIMD3`: its generic witnesses make debug builds (and so the tests) many times slower,
/// and release code is just as fast with three stored doubles.
struct Vector3: Sendable, Equatable {
    var x: Double
    var y: Double
    var z: Double

    /// The coordinate on split axis 0, 1 or 2.
    @inline(__always)
    func component(_ axis: Int) -> Double {
        axis == 0 ? x : (axis == 1 ? y : z)
    }

    /// The squared straight-line distance.
    @inline(__always)
    func squaredDistance(to other: Vector3) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        let dz = z - other.z
        return dx * dx + dy * dy + dz * dz
    }
}
