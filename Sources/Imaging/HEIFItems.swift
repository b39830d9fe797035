/// What a HEIF file's `meta` box says about its items (ISO/IEC 23008-12 §9), read by our own bounded parser so
/// that every picture libheif would decode can be measured before it is: libheif 1.15's API gives no access to
/// items, their properties or their data.
///
/// It reads only what the checks need (`pitm`, `iinf`, `iloc`, `idat`, `iprp`, `iref`) and refuses what it
/// cannot read unambiguously (an item listed twice), so libheif never decodes something this reader has not
/// seen.
struct HEIFItems {
    struct Item {
        /// The `infe` item type (`hvc1`, `av01`, `grid`…); nil for version 0 and 1 entries, which have none.
        var type: FourCC?
        /// The indices into `properties` associated with the item by `ipma`.
        var properties: [Int] = []
        /// Where the item's data lies (`iloc`); nil when it has no entry there.
        var location: ItemLocation?
    }

    /// One `iloc` entry.
    struct ItemLocation {
        /// 0: in the file; 1: in `idat`; 2 (in another item) is refused when read.
        var constructionMethod: Int
        var extents: [(offset: Int, length: Int)]
    }

    let bytes: UnsafeRawBufferPointer
    let format: ImageFormat
    var primary: UInt32 = 0
    var items: [UInt32: Item] = [:]
    /// The children of `ipco`, in order (`ipma` counts them from 1).
    var properties: [ISOBMFFBox] = []
    /// `dimg` references: a derived image (grid, overlay, identity) to the images it is made of, in order, from
    /// every `iref` entry (libheif reads the first one; all are checked).
    var ingredients: [UInt32: [UInt32]] = [:]
    /// `auxl` references turned around: an image to its auxiliary images (alpha, depth), which libheif decodes
    /// with it.
    var auxiliaries: [UInt32: [UInt32]] = [:]
    var idat: Range<Int>?

    /// More items, properties, extents or references than a photo has (an iPhone's 48-megapixel HEIC has about
    /// 200 items) are refused rather than read.
    static let maxEntries = 65_536

    init(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(ImagingError) {
        self.bytes = bytes
        self.format = format
        var file = BoxReader(bytes, 0..<bytes.count, format: format)
        var meta: ISOBMFFBox?
        // libheif reads the first `meta` box of the file; so does this.
        while meta == nil, let box = try file.nextBox() {
            if box.type == .meta { meta = box }
        }
        guard let meta, meta.payload.count >= 4 else { throw .corrupt(format, "the file has no meta box") }
        var reader = BoxReader(bytes, meta.payload.lowerBound + 4..<meta.payload.upperBound, format: format)
        var seen = Set<FourCC>()
        for box in try reader.boxes(limit: Self.maxEntries) where seen.insert(box.type).inserted {
            switch box.type {
            case .pitm: try readPrimary(box)
            case .iinf: try readItemInfo(box)
            case .iloc: try readLocations(box)
            case .iprp: try readProperties(box)
            case .iref: try readReferences(box)
            case .idat: idat = box.payload
            default: break
            }
        }
        guard seen.contains(.pitm) else { throw .corrupt(format, "the file names no primary image") }
    }

    /// The data of `item` through its `iloc` entry: ranges of the file or of `idat`, checked to lie within them.
    func data(of id: UInt32) throws(ImagingError) -> ByteRanges {
        guard let location = items[id]?.location else { throw .corrupt(format, "item \(id) has no data") }
        let container: Range<Int>
        switch location.constructionMethod {
        case 0: container = 0..<bytes.count
        case 1:
            guard let idat else { throw .corrupt(format, "item \(id) is in an idat box the file lacks") }
            container = idat
        default: throw .unsupported(format, "uses a way of storing its data we cannot read")
        }
        var ranges: [Range<Int>] = []
        for extent in location.extents {
            let (start, overflow) = container.lowerBound.addingReportingOverflow(extent.offset)
            guard !overflow, start <= container.upperBound else { throw .corrupt(format, "item \(id)'s data lies outside the file") }
            // A length of 0 is the rest of the container (ISO/IEC 14496-12 §8.11.3.3).
            let length = extent.length == 0 ? container.upperBound - start : extent.length
            guard length <= container.upperBound - start else { throw .corrupt(format, "item \(id)'s data lies outside the file") }
            ranges.append(start..<start + length)
        }
        return ByteRanges(bytes, ranges)
    }

    /// The properties of `item` of one type, as boxes of the file.
    func properties(of id: UInt32, _ type: FourCC) -> [ISOBMFFBox] {
        (items[id]?.properties ?? []).map { properties[$0] }.filter { $0.type == type }
    }
}
