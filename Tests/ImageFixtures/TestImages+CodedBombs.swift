extension TestImages {
    /// A HEIF file whose coded picture is larger than its boxes declare: a decompression bomb as an attacker
    /// makes one, by encoding a large flat picture and editing the sizes in the container afterwards.
    public struct CodedBomb: Sendable {
        public let bytes: [UInt8]
        /// The size the coded stream declares, which a decoder allocates.
        public let coded: (width: Int, height: Int)
        /// The size the edited boxes declare.
        public let declared: (width: Int, height: Int)
    }

    /// A flat `side × side` picture coded by heif-enc (HEVC) or, with `avif`, by avifenc (AV1), every `ispe` then
    /// edited to say `declared × declared`.
    public static func codedBomb(side: Int, declared: Int, avif: Bool = false) throws -> CodedBomb {
        let fixtures = try FixtureDirectory()
        try fixtures.write("in.png", PNGBuilder.flat(width: side, height: side, red: 200, green: 100, blue: 50))
        if avif {
            try fixtures.run("avifenc", ["-s", "10", "--min", "40", "--max", "63", "in.png", "out.avif"])
        } else {
            try fixtures.run("heif-enc", ["-q", "10", "-p", "preset=ultrafast", "in.png", "-o", "out.heic"])
        }
        var file = try fixtures.read(avif ? "out.avif" : "out.heic")
        try HEIFBoxes.replaceSizes(in: &file, box: "ispe", (side, side), with: (declared, declared))
        return CodedBomb(bytes: file, coded: (side, side), declared: (declared, declared))
    }

    /// heif-enc writes a picture of odd size as a 1×1 grid whose tile is a pixel larger on each side: with `tile`,
    /// the tile's `ispe` is edited to `declared` (and the grid's `ispe` and its own description to `declared − 1`,
    /// so only the tile lies); without, the grid's `ispe` is edited to `declared` and its description still says
    /// the coded size.
    public static func gridBomb(side: Int, declared: Int, tile: Bool) throws -> CodedBomb {
        precondition(side % 2 == 1, "heif-enc writes a grid for an odd size")
        let fixtures = try FixtureDirectory()
        try fixtures.write("in.png", PNGBuilder.flat(width: side, height: side, red: 20, green: 150, blue: 50))
        try fixtures.run("heif-enc", ["-q", "10", "-p", "preset=ultrafast", "in.png", "-o", "out.heic"])
        var file = try fixtures.read("out.heic")
        if tile {
            try HEIFBoxes.replaceSizes(in: &file, box: "ispe", (side + 1, side + 1), with: (declared, declared))
            try HEIFBoxes.replaceSizes(in: &file, box: "ispe", (side, side), with: (declared - 1, declared - 1))
            try HEIFBoxes.replaceGridOutput(in: &file, with: (declared - 1, declared - 1))
            return CodedBomb(bytes: file, coded: (side + 1, side + 1), declared: (declared, declared))
        }
        try HEIFBoxes.replaceSizes(in: &file, box: "ispe", (side, side), with: (declared, declared))
        return CodedBomb(bytes: file, coded: (side, side), declared: (declared, declared))
    }
}

extension HEIFBoxes {
    /// Rewrites every `ispe` box (a full box: four bytes of version and flags, then width and height) that says
    /// `size` to say `replacement`; throws when there is none.
    public static func replaceSizes(
        in file: inout [UInt8],
        box type: String,
        _ size: (Int, Int),
        with replacement: (Int, Int)
    ) throws {
        let name = Array(type.utf8)
        let old = PNGBuilder.bigEndian(size.0) + PNGBuilder.bigEndian(size.1)
        var found = false
        for at in file.indices.dropLast(16) where file[at..<at + 4].elementsEqual(name) && file[at + 8..<at + 16].elementsEqual(old) {
            file.replaceSubrange(at + 8..<at + 16, with: PNGBuilder.bigEndian(replacement.0) + PNGBuilder.bigEndian(replacement.1))
            found = true
        }
        guard found else { throw EditFailure(description: "no \(type) of \(size.0)×\(size.1)") }
    }

    /// Rewrites the output size of the grid heif-enc keeps in `idat` (version, flags, rows − 1, columns − 1,
    /// then 16-bit width and height).
    public static func replaceGridOutput(in file: inout [UInt8], with size: (Int, Int)) throws {
        guard let at = file.indices.dropLast(16).first(where: { file[$0..<$0 + 4].elementsEqual("idat".utf8) }),
            file[at + 5] & 1 == 0
        else { throw EditFailure(description: "no grid description with 16-bit sizes in idat") }
        file.replaceSubrange(at + 8..<at + 12, with: [UInt8(size.0 >> 8), UInt8(size.0 & 0xFF), UInt8(size.1 >> 8), UInt8(size.1 & 0xFF)])
    }
}
