extension H3Cell {
    /// The cell's centre in degrees, as H3's `cellToLatLng`; longitude in -180...180.
    public var center: (latitude: Double, longitude: Double) {
        let (face, coord) = faceCoordinates()
        let p = FaceProjection.position(of: coord)
        let g = FaceProjection.unproject(face: face, x: p.x, y: p.y, resolution: resolution)
        return (g.lat * H3Grid.degreesPerRadian, g.lng * H3Grid.degreesPerRadian)
    }

    /// The face and lattice position of the cell centre. Starts on the base cell's home face; when
    /// the centre falls past that face's edge it is re-expressed on the face it lies on.
    func faceCoordinates() -> (face: Int, coord: CoordIJK) {
        var raw = rawValue
        let base = baseCell
        let res = resolution
        let pentagon = pentagonCwOffsetFaces(base) != nil
        // Pentagon ik children are stored turned; undo it so the walk below lands on the right side.
        if pentagon, H3Bits.leadingNonZeroDigit(raw) == 5 { raw = H3Bits.rotatedCW(raw) }
        var face = Int(baseCellHome[base * 4])
        var coord = CoordIJK(
            i: Int(baseCellHome[base * 4 + 1]),
            j: Int(baseCellHome[base * 4 + 2]),
            k: Int(baseCellHome[base * 4 + 3])
        )
        let canLeaveFace = pentagon || (res > 0 && coord != .zero)
        for r in stride(from: 1, through: res, by: 1) {
            coord = (r & 1 == 1 ? coord.downAp7 : coord.downAp7r) + CoordIJK(digit: H3Bits.digit(raw, r))
        }
        guard canLeaveFace else { return (face, coord) }

        // Face edges line up with the Class II lattice, so test Class III cells one level finer.
        let original = coord
        var workRes = res
        if res & 1 == 1 {
            coord = coord.downAp7r
            workRes += 1
        }
        let pentagonLeading4 = pentagon && H3Bits.leadingNonZeroDigit(raw) == 4
        if crossEdge(face: &face, coord: &coord, resolution: workRes, pentagonLeading4: pentagonLeading4) {
            if pentagon {
                while crossEdge(face: &face, coord: &coord, resolution: workRes, pentagonLeading4: false) {}
            }
            if workRes != res { coord = coord.upAp7r }
        } else if workRes != res {
            coord = original
        }
        return (face, coord)
    }

    /// Moves a Class II position that lies beyond its face's triangle onto the neighbouring face;
    /// returns whether it moved.
    private func crossEdge(face: inout Int, coord: inout CoordIJK, resolution: Int, pentagonLeading4: Bool) -> Bool {
        var unit = 1
        for _ in 0..<(resolution / 2) { unit *= 7 }
        let maxDim = 2 * unit
        guard coord.i + coord.j + coord.k > maxDim else { return false }
        let edge: Int  // 0: ij, 1: ki, 2: jk
        if coord.k > 0 {
            if coord.j > 0 {
                edge = 2
            } else {
                edge = 1
                if pentagonLeading4 {
                    // Around a pentagon the ki edge is reached through the missing wedge: turn about
                    // the pentagon's centre vertex first.
                    let origin = CoordIJK(i: maxDim, j: 0, k: 0)
                    coord = (coord - origin).rotatedCW + origin
                }
            }
        } else {
            edge = 0
        }
        let n = faceNeighbors[face][edge]
        face = n.face
        for _ in 0..<n.ccwRot60 { coord = coord.rotatedCCW }
        coord = coord + CoordIJK(i: n.i, j: n.j, k: n.k).scaled(by: unit)
        return true
    }
}
