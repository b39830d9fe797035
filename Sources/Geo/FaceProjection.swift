import Foundation

/// The gnomonic projection between the sphere and the planes of the 20 icosahedron faces, as the H3
/// "coordinate systems" documentation describes it: each face has its own 2D hex grid centred on the
/// face centre, with the Class II i axis towards the face's vertex 0 and Class III grids turned by
/// asin(√(3/28)).
enum FaceProjection {
    /// The nearest face to a point (radians) and the point's 2D position on that face, in units of
    /// the hex spacing at `resolution`.
    static func project(lat: Double, lng: Double, resolution: Int) -> (face: Int, x: Double, y: Double) {
        let cosLat = cos(lat)
        let px = cos(lng) * cosLat
        let py = sin(lng) * cosLat
        let pz = sin(lat)
        var face = 0
        var best = Double.infinity
        for f in 0..<H3Grid.faceCount {
            let c = faceCenterPoint[f]
            let d = (c.x - px) * (c.x - px) + (c.y - py) * (c.y - py) + (c.z - pz) * (c.z - pz)
            if d < best {
                best = d
                face = f
            }
        }
        // Chord length squared d gives the central angle: cos(angle) = 1 - d / 2.
        var r = acos(1 - best / 2)
        if r < H3Grid.epsilon { return (face, 0, 0) }
        let centre = faceCenterGeo[face]
        var theta = positiveAngle(
            faceAxisAzimuthCII[face] - positiveAngle(azimuth(from: centre, toLat: lat, lng: lng))
        )
        if resolution & 1 == 1 { theta = positiveAngle(theta - H3Grid.ap7RotationRadians) }
        r = tan(r) / H3Grid.res0UGnomonic
        for _ in 0..<resolution { r *= H3Grid.sqrt7 }
        return (face, r * cos(theta), r * sin(theta))
    }

    /// The point (radians) at a 2D position on a face at `resolution`.
    static func unproject(face: Int, x: Double, y: Double, resolution: Int) -> (lat: Double, lng: Double) {
        let centre = faceCenterGeo[face]
        var r = (x * x + y * y).squareRoot()
        if r < H3Grid.epsilon { return centre }
        var theta = atan2(y, x)
        for _ in 0..<resolution { r /= H3Grid.sqrt7 }
        r = atan(r * H3Grid.res0UGnomonic)
        if resolution & 1 == 1 { theta = positiveAngle(theta + H3Grid.ap7RotationRadians) }
        theta = positiveAngle(faceAxisAzimuthCII[face] - theta)
        return destination(from: centre, azimuth: theta, distance: r)
    }

    /// The nearest lattice point to a 2D position. Works in cube coordinates (three integer axes
    /// summing to zero, 60° axial basis), where the nearest hexagon centre is found by rounding each
    /// axis and repairing the one that moved most.
    static func nearestIJK(x: Double, y: Double) -> CoordIJK {
        // With k = 0: y = j·sin60 and x = i - j/2. The j axis (120°) is the 60° axis minus the i axis,
        // so the 60°-axial coordinates are (i - j, j) and the third cube axis is -i.
        let j = y / H3Grid.sin60
        let i = x + j / 2
        let q = i - j
        let s = -i
        var rq = q.rounded()
        var rr = j.rounded()
        let rs = s.rounded()
        let dq = abs(rq - q)
        let dr = abs(rr - j)
        let ds = abs(rs - s)
        // The third axis is implied by the other two, so only they need repairing.
        if dq > dr, dq > ds {
            rq = -rr - rs
        } else if dr > ds {
            rr = -rq - rs
        }
        return CoordIJK(i: Int(rq + rr), j: Int(rr), k: 0).normalized
    }

    /// The 2D position of a lattice point.
    static func position(of c: CoordIJK) -> (x: Double, y: Double) {
        let i = Double(c.i - c.k)
        let j = Double(c.j - c.k)
        return (i - 0.5 * j, j * H3Grid.sin60)
    }

    static func positiveAngle(_ a: Double) -> Double {
        var t = a < 0 ? a + H3Grid.twoPi : a
        if a >= H3Grid.twoPi { t -= H3Grid.twoPi }
        return t
    }

    /// Initial bearing from one point to another (radians, clockwise from north).
    static func azimuth(from p: (lat: Double, lng: Double), toLat lat: Double, lng: Double) -> Double {
        atan2(
            cos(lat) * sin(lng - p.lng),
            cos(p.lat) * sin(lat) - sin(p.lat) * cos(lat) * cos(lng - p.lng)
        )
    }

    /// The point reached by travelling `distance` (radians of arc) from `p` along `azimuth`.
    /// Works with unit vectors rather than asin so points near the poles keep full precision.
    static func destination(
        from p: (lat: Double, lng: Double),
        azimuth: Double,
        distance: Double
    ) -> (lat: Double, lng: Double) {
        let (sinLat, cosLat) = (sin(p.lat), cos(p.lat))
        let (sinLng, cosLng) = (sin(p.lng), cos(p.lng))
        let (sinD, cosD) = (sin(distance), cos(distance))
        let (sinAz, cosAz) = (sin(azimuth), cos(azimuth))
        // start point, and the local north and east unit vectors there
        let start = (x: cosLat * cosLng, y: cosLat * sinLng, z: sinLat)
        let north = (x: -sinLat * cosLng, y: -sinLat * sinLng, z: cosLat)
        let east = (x: -sinLng, y: cosLng, z: 0.0)
        let x = start.x * cosD + (north.x * cosAz + east.x * sinAz) * sinD
        let y = start.y * cosD + (north.y * cosAz + east.y * sinAz) * sinD
        let z = start.z * cosD + (north.z * cosAz + east.z * sinAz) * sinD
        let horizontal = (x * x + y * y).squareRoot()
        return (atan2(z, horizontal), horizontal == 0 ? 0 : atan2(y, x))
    }

    static func wrapLongitude(_ lng: Double) -> Double {
        var l = lng
        while l > Double.pi { l -= H3Grid.twoPi }
        while l < -Double.pi { l += H3Grid.twoPi }
        return l
    }
}
