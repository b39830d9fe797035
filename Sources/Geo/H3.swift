/// Entry points of the H3 grid that do not start from a cell.
public enum H3 {
    /// The cell containing a point at a resolution, as H3's `latLngToCell`.
    ///
    /// Degrees in; nil for non-finite input or resolution outside 0...15. Longitudes outside ±180 are
    /// wrapped, latitudes clamped to ±90.
    public static func cell(latitude: Double, longitude: Double, resolution: Int) -> H3Cell? {
        guard latitude.isFinite, longitude.isFinite, (0...H3Grid.maxResolution).contains(resolution) else {
            return nil
        }
        let lat = min(90, max(-90, latitude)) * H3Grid.radiansPerDegree
        var lngDegrees = longitude
        if abs(lngDegrees) > 180 {
            lngDegrees = lngDegrees.truncatingRemainder(dividingBy: 360)
            if lngDegrees > 180 { lngDegrees -= 360 } else if lngDegrees < -180 { lngDegrees += 360 }
        }
        let p = FaceProjection.project(lat: lat, lng: lngDegrees * H3Grid.radiansPerDegree, resolution: resolution)
        return encode(face: p.face, ijk: FaceProjection.nearestIJK(x: p.x, y: p.y), resolution: resolution)
    }

    /// Turns a lattice position on a face into an index: climbs the aperture-7 hierarchy one
    /// resolution at a time, recording which child each step came from, then looks up the base cell
    /// and turns the digits into that base cell's own orientation.
    static func encode(face: Int, ijk: CoordIJK, resolution: Int) -> H3Cell? {
        // mode 1, resolution, base cell 0, every digit 7
        var raw: UInt64 = 1 << 59 | UInt64(resolution) << 52 | (1 << 45 - 1)
        var coord = ijk
        var r = resolution
        while r > 0 {
            let child = coord
            let centre: CoordIJK
            if r & 1 == 1 {
                coord = coord.upAp7
                centre = coord.downAp7
            } else {
                coord = coord.upAp7r
                centre = coord.downAp7r
            }
            guard let digit = (child - centre).digit else { return nil }
            raw = H3Bits.setDigit(raw, r, UInt64(digit))
            r -= 1
        }
        guard (0...2).contains(coord.i), (0...2).contains(coord.j), (0...2).contains(coord.k) else { return nil }
        let slot = (face * 27 + coord.i * 9 + coord.j * 3 + coord.k) * 2
        let baseCell = Int(faceIjkBaseCells[slot])
        let rotations = Int(faceIjkBaseCells[slot + 1])
        raw |= UInt64(baseCell) << 45
        if let offsetFaces = pentagonCwOffsetFaces(baseCell) {
            // A k-leading path would fall into the pentagon's deleted wedge: turn out of it, the way
            // the neighbouring face is oriented relative to the pentagon.
            if H3Bits.leadingNonZeroDigit(raw) == 1 {
                let clockwise = offsetFaces.0 == face || offsetFaces.1 == face
                raw = clockwise ? H3Bits.rotatedCW(raw) : H3Bits.rotatedCCW(raw)
            }
            for _ in 0..<rotations { raw = H3Bits.pentagonRotatedCCW(raw) }
        } else {
            for _ in 0..<rotations { raw = H3Bits.rotatedCCW(raw) }
        }
        return H3Cell(unchecked: raw)
    }
}
