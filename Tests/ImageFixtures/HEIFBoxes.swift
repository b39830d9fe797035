/// Edits a HEIF file's boxes (ISO/IEC 14496-12 and 23008-12) to give its primary item a `colr` box of type `nclx`,
/// as writers other than heif-enc 1.15 do (its matrix and range options never reach the file). Handles what
/// heif-enc writes: 32-bit box sizes, `mdat` after `meta`, `ipma` versions 0 and 1.
public enum HEIFBoxes {
    public struct EditFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `file` with an `nclx` colour description (primaries 1, transfer 13) added to the primary item's properties.
    public static func addingNCLX(to file: [UInt8], matrixCoefficients: Int, fullRange: Bool) throws -> [UInt8] {
        var d = file
        let meta = try box("meta", in: d, from: 0, to: d.count)
        guard try box("mdat", in: d, from: 0, to: d.count).start > meta.start else {
            throw EditFailure(description: "mdat before meta")
        }
        // meta is a full box: four bytes of version and flags before its children.
        let children = (meta.start + 12, meta.end)
        let iprp = try box("iprp", in: d, from: children.0, to: children.1)
        let ipco = try box("ipco", in: d, from: iprp.start + 8, to: iprp.end)
        let ipma = try box("ipma", in: d, from: iprp.start + 8, to: iprp.end)
        let iloc = try box("iloc", in: d, from: children.0, to: children.1)
        let pitm = try box("pitm", in: d, from: children.0, to: children.1)
        let primary = read(d, pitm.start + 12, d[pitm.start + 8] == 0 ? 2 : 4)
        guard iloc.start < ipco.start else { throw EditFailure(description: "iloc after iprp") }

        let colr: [UInt8] =
            bytes(19, 4) + Array("colrnclx".utf8) + bytes(1, 2) + bytes(13, 2) + bytes(matrixCoefficients, 2)
            + [fullRange ? 0x80 : 0]
        let propertyIndex = count(in: d, from: ipco.start + 8, to: ipco.end) + 1

        // The primary's entry in ipma gets one more association.
        let version = d[ipma.start + 8]
        let wide = d[ipma.start + 11] & 1 == 1
        let idSize = version < 1 ? 2 : 4
        let associationSize = wide ? 2 : 1
        var q = ipma.start + 16
        var insertAt: Int?
        for _ in 0..<read(d, ipma.start + 12, 4) {
            let item = read(d, q, idSize)
            q += idSize
            let associations = Int(d[q])
            if item == primary {
                d[q] += 1
                insertAt = q + 1 + associations * associationSize
            }
            q += 1 + associations * associationSize
        }
        guard let insertAt else { throw EditFailure(description: "the primary item has no ipma entry") }
        let association = wide ? bytes(propertyIndex, 2) : [UInt8(propertyIndex)]
        let delta = colr.count + association.count

        // Item data in the file (construction method 0) moves with mdat.
        try shiftFileOffsets(&d, iloc: iloc.start, by: delta)

        // Insert from the back so earlier offsets stay valid, then grow the enclosing boxes.
        d.insert(contentsOf: association, at: insertAt)
        d.insert(contentsOf: colr, at: ipco.end)
        for (at, grow) in [(ipma.start + colr.count, association.count), (ipco.start, colr.count), (iprp.start, delta), (meta.start, delta)] {
            write(&d, at, 4, read(d, at, 4) + grow)
        }
        return d
    }

    private static func shiftFileOffsets(_ d: inout [UInt8], iloc: Int, by delta: Int) throws {
        let version = d[iloc + 8]
        let offsetSize = Int(d[iloc + 12] >> 4)
        let lengthSize = Int(d[iloc + 12] & 15)
        let baseSize = Int(d[iloc + 13] >> 4)
        let indexSize = version == 1 || version == 2 ? Int(d[iloc + 13] & 15) : 0
        let wideIDs = version >= 2
        var q = iloc + 14
        let items = read(d, q, wideIDs ? 4 : 2)
        q += wideIDs ? 4 : 2
        var patches: [(at: Int, size: Int)] = []
        for _ in 0..<items {
            q += wideIDs ? 4 : 2
            var method = 0
            if version == 1 || version == 2 {
                method = Int(d[q + 1] & 15)
                q += 2
            }
            q += 2  // data_reference_index
            let base = q
            q += baseSize
            let extents = read(d, q, 2)
            q += 2
            for _ in 0..<extents {
                q += indexSize
                if method == 0 { patches.append(baseSize > 0 ? (base, baseSize) : (q, offsetSize)) }
                q += offsetSize + lengthSize
            }
        }
        var seen = Set<Int>()
        for patch in patches where seen.insert(patch.at).inserted {
            guard patch.size > 0 else { throw EditFailure(description: "iloc has no offsets to move") }
            write(&d, patch.at, patch.size, read(d, patch.at, patch.size) + delta)
        }
    }

    private static func box(_ type: String, in d: [UInt8], from start: Int, to end: Int) throws -> (start: Int, end: Int) {
        var p = start
        while p + 8 <= end {
            let size = read(d, p, 4)
            guard size >= 8 else { break }
            if String(decoding: d[(p + 4)..<(p + 8)], as: UTF8.self) == type { return (p, p + size) }
            p += size
        }
        throw EditFailure(description: "no \(type) box")
    }

    private static func count(in d: [UInt8], from start: Int, to end: Int) -> Int {
        var p = start
        var n = 0
        while p + 8 <= end {
            let size = read(d, p, 4)
            guard size >= 8 else { break }
            n += 1
            p += size
        }
        return n
    }

    private static func read(_ d: [UInt8], _ at: Int, _ size: Int) -> Int {
        d[at..<(at + size)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func write(_ d: inout [UInt8], _ at: Int, _ size: Int, _ value: Int) {
        for i in 0..<size { d[at + i] = UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - i))) }
    }

    private static func bytes(_ value: Int, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
    }
}
