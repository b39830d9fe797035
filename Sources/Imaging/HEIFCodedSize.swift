/// Measures every picture libheif would decode for a HEIF file's primary image (the image itself, a grid's tiles,
/// an overlay's layers, the image an identity item shows, and their alpha planes) from the coded streams' own
/// headers, before libheif decodes any of it.
///
/// libheif 1.15 allocates what the streams declare (an HEVC sequence parameter set, an AV1 sequence header, a
/// grid's or overlay's own description), whatever the `ispe` size that `PixelLimits` checked: a 1 KB AVIF whose
/// `ispe` says 64×64 decodes at 8192×8192. Each coded picture must fit its item's `ispe`, rounded up to a whole
/// 64-pixel block, and the limits; each grid and overlay its `ispe` and the limits.
struct HEIFCodedSize {
    let items: HEIFItems
    let limits: PixelLimits
    private var visits = 0
    private var measured = Set<UInt32>()

    /// Deep enough for an identity item showing a grid whose tiles have alpha planes; a reference cycle (which
    /// libheif 1.15 follows until its stack runs out) goes deeper.
    static let maxDepth = 4
    /// Pictures visited, counting each time a grid lists the same tile.
    static let maxVisits = 1 << 18

    /// What a picture is to the person's photo, for the refusal.
    enum Part: String {
        case image = "image data"
        case tile
        case alpha = "transparency layer"
    }

    /// Throws `.tooLarge` naming the picture, its size and the size declared for it (or the limit), `.corrupt`
    /// when the structure cannot be read, and `.unsupportedFormat` for a picture libheif would decode that this
    /// cannot measure.
    static func check(_ bytes: UnsafeRawBufferPointer, format: ImageFormat, limits: PixelLimits) throws(ImagingError) {
        var check = HEIFCodedSize(items: try HEIFItems(bytes, format: format), limits: limits)
        try check.visit(check.items.primary, as: .image, depth: 0)
    }

    var format: ImageFormat { items.format }

    private mutating func visit(_ id: UInt32, as part: Part, depth: Int) throws(ImagingError) {
        visits += 1
        guard visits <= Self.maxVisits, depth <= Self.maxDepth else {
            throw .unsupported(format, "nests more pictures than we can check")
        }
        guard let type = items.items[id]?.type else { throw .corrupt(format, "refers to item \(id), which it does not describe") }
        switch type {
        case .hvc1, .av01:
            if measured.insert(id).inserted {
                let declared = try declaredSize(id)
                let sizes = type == .hvc1 ? try hevcSizes(id) : try av1Sizes(id)
                for size in sizes { try check(size, declared, part) }
            }
        case .grid, .iovl, .iden:
            let ingredients = items.ingredients[id] ?? []
            if type == .grid { try checkGrid(id, tiles: ingredients) }
            if type == .iovl { try checkOverlay(id) }
            guard !ingredients.isEmpty else { throw .corrupt(format, "derived image \(id) is made of nothing") }
            for ingredient in ingredients {
                try visit(ingredient, as: part == .alpha ? .alpha : .tile, depth: depth + 1)
            }
        default:
            throw .unsupported(format, "uses a compression or feature we cannot decode")
        }
        for alpha in items.auxiliaries[id] ?? [] {
            try visit(alpha, as: .alpha, depth: depth + 1)
        }
    }

    /// A coded picture must fit its `ispe` (rounded up to a block) and, a block less on each side, the limits.
    private func check(_ coded: CodedSize, _ declared: CodedSize, _ part: Part) throws(ImagingError) {
        guard coded.fits(width: declared.width, height: declared.height) else {
            throw .tooLarge(
                format, part: part.rawValue, width: coded.width, height: coded.height, declaredWidth: declared.width,
                declaredHeight: declared.height)
        }
        guard coded.mayCarry(within: limits) else {
            try limits.check(format, width: coded.width, height: coded.height)
            throw .tooLarge(format, width: coded.width, height: coded.height, maxPixels: limits.maxPixels)
        }
    }

    /// The size a grid or overlay composes, which libheif allocates: at most its `ispe`, and within the limits.
    private func checkComposed(_ id: UInt32, _ part: String, width: Int, height: Int) throws(ImagingError) {
        guard width > 0, height > 0 else { throw .corrupt(format, "\(part) \(id) has no pixels") }
        let declared = try declaredSize(id)
        guard width <= declared.width, height <= declared.height else {
            throw .tooLarge(
                format, part: part, width: width, height: height, declaredWidth: declared.width, declaredHeight: declared.height)
        }
        try limits.check(format, width: width, height: height)
    }

    /// `ispe`, ISO/IEC 23008-12 §6.5.3, which every image item must have; of several, the smallest sides.
    func declaredSize(_ id: UInt32) throws(ImagingError) -> CodedSize {
        var declared: CodedSize?
        for ispe in items.properties(of: id, .ispe) {
            var reader = BoxReader(items.bytes, ispe.payload, format: format)
            try reader.skip(4, "ispe")
            let width = try reader.uint(4, "ispe")
            let height = try reader.uint(4, "ispe")
            declared = CodedSize(width: min(width, declared?.width ?? width), height: min(height, declared?.height ?? height))
        }
        guard let declared else { throw .corrupt(format, "image \(id) declares no size (ispe)") }
        return declared
    }

    /// A grid (ISO/IEC 23008-12 §6.6.2.3): rows × columns tiles of one size, none of them wholly outside the output,
    /// so the tiles decoded add up to the output and at most a tile's width and height more.
    private func checkGrid(_ id: UInt32, tiles: [UInt32]) throws(ImagingError) {
        let description = try items.data(of: id).read(0, 12)
        guard description.count >= 8, description[1] & 1 == 0 || description.count >= 12 else {
            throw .corrupt(format, "grid \(id)'s description is truncated")
        }
        let field = description[1] & 1 == 0 ? 2 : 4
        let (rows, columns) = (Int(description[2]) + 1, Int(description[3]) + 1)
        let width = Self.number(description[4..<4 + field])
        let height = Self.number(description[4 + field..<4 + 2 * field])
        try checkComposed(id, "grid", width: width, height: height)
        guard tiles.count == rows * columns else {
            throw .corrupt(format, "grid \(id) has \(rows)×\(columns) places for \(tiles.count) tiles")
        }
        let tile = try declaredSize(tiles[0])
        for other in tiles.dropFirst() where try declaredSize(other) != tile {
            throw .corrupt(format, "grid \(id)'s tiles differ in size")
        }
        guard (columns - 1) * tile.width < width, (rows - 1) * tile.height < height else {
            throw .corrupt(format, "grid \(id) has tiles wholly outside its \(width)×\(height) pixels")
        }
    }

    /// An overlay (ISO/IEC 23008-12 §6.6.2.2): version 0, then four fill values and the canvas size.
    private func checkOverlay(_ id: UInt32) throws(ImagingError) {
        let description = try items.data(of: id).read(0, 18)
        guard description.count >= 2, description[0] == 0 else {
            throw .unsupported(format, "uses a compression or feature we cannot decode")
        }
        let field = description[1] & 1 == 0 ? 2 : 4
        guard description.count >= 10 + 2 * field else { throw .corrupt(format, "overlay \(id)'s description is truncated") }
        let width = Self.number(description[10..<10 + field])
        let height = Self.number(description[10 + field..<10 + 2 * field])
        try checkComposed(id, "overlay", width: width, height: height)
    }

    static func number(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
