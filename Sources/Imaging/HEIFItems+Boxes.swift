/// The `meta` boxes `HEIFItems` reads (ISO/IEC 14496-12 §8.11, ISO/IEC 23008-12 §9.3), each a full box: a
/// version byte and three bytes of flags before its fields.
extension HEIFItems {
    mutating func readPrimary(_ box: ISOBMFFBox) throws(ImagingError) {
        var reader = BoxReader(bytes, box.payload, format: format)
        let version = try reader.uint(1, "pitm")
        try reader.skip(3, "pitm")
        primary = UInt32(try reader.uint(version == 0 ? 2 : 4, "pitm"))
    }

    /// `iinf`'s `infe` entries. An item described twice is refused: which description libheif keeps is not ours
    /// to guess.
    mutating func readItemInfo(_ box: ISOBMFFBox) throws(ImagingError) {
        var reader = BoxReader(bytes, box.payload, format: format)
        let version = try reader.uint(1, "iinf")
        try reader.skip(3 + (version == 0 ? 2 : 4), "iinf")
        var described = Set<UInt32>()
        for entry in try reader.boxes(limit: Self.maxEntries) where entry.type == .infe {
            var infe = BoxReader(bytes, entry.payload, format: format)
            let version = try infe.uint(1, "infe")
            try infe.skip(3, "infe")
            // Versions 0 and 1 carry no item type: libheif takes such items for no image.
            let id = UInt32(try infe.uint(version >= 3 ? 4 : 2, "infe"))
            var type: FourCC?
            if version >= 2 {
                try infe.skip(2, "infe")  // item_protection_index
                type = FourCC(UInt32(try infe.uint(4, "infe")))
            }
            guard described.insert(id).inserted else { throw .corrupt(format, "item \(id) is described twice") }
            items[id, default: Item()].type = type
        }
    }

    /// `iloc`, versions 0 to 2: field sizes from its header, each extent as an offset (the base offset added)
    /// and a length.
    mutating func readLocations(_ box: ISOBMFFBox) throws(ImagingError) {
        var reader = BoxReader(bytes, box.payload, format: format)
        let version = try reader.uint(1, "iloc")
        try reader.skip(3, "iloc")
        guard version <= 2 else { throw .unsupported(format, "uses a version of its item locations we cannot read") }
        let sizes = try reader.uint(2, "iloc")
        let offsetSize = sizes >> 12
        let lengthSize = sizes >> 8 & 15
        let baseOffsetSize = sizes >> 4 & 15
        let indexSize = version == 0 ? 0 : sizes & 15
        guard [offsetSize, lengthSize, baseOffsetSize, indexSize].allSatisfy({ [0, 4, 8].contains($0) }) else {
            throw .corrupt(format, "iloc has field sizes other than 0, 4 or 8")
        }
        let count = try reader.uint(version < 2 ? 2 : 4, "iloc")
        guard count <= Self.maxEntries else { throw .unsupported(format, "has more parts than we can check") }
        var extents = 0
        for _ in 0..<count {
            let id = UInt32(try reader.uint(version < 2 ? 2 : 4, "iloc"))
            let method = version == 0 ? 0 : try reader.uint(2, "iloc") & 15
            try reader.skip(2, "iloc")  // data_reference_index
            let base = try reader.uint(baseOffsetSize, "iloc")
            var location = ItemLocation(constructionMethod: method, extents: [])
            for _ in 0..<(try reader.uint(2, "iloc")) {
                extents += 1
                guard extents <= Self.maxEntries else { throw .unsupported(format, "has more parts than we can check") }
                try reader.skip(indexSize, "iloc")
                let (offset, overflow) = base.addingReportingOverflow(try reader.uint(offsetSize, "iloc"))
                guard !overflow else { throw .corrupt(format, "item \(id)'s data lies outside the file") }
                location.extents.append((offset, try reader.uint(lengthSize, "iloc")))
            }
            guard items[id]?.location == nil else { throw .corrupt(format, "item \(id) is located twice") }
            items[id, default: Item()].location = location
        }
    }

    /// `iprp`: the first `ipco`'s properties, and every `ipma` box's associations (libheif merges them).
    mutating func readProperties(_ box: ISOBMFFBox) throws(ImagingError) {
        var reader = BoxReader(bytes, box.payload, format: format)
        let children = try reader.boxes(limit: Self.maxEntries)
        if let ipco = children.first(where: { $0.type == .ipco }) {
            var container = BoxReader(bytes, ipco.payload, format: format)
            properties = try container.boxes(limit: Self.maxEntries)
        }
        var associated = Set<UInt32>()
        for ipma in children where ipma.type == .ipma {
            var reader = BoxReader(bytes, ipma.payload, format: format)
            let version = try reader.uint(1, "ipma")
            let wide = try reader.uint(3, "ipma") & 1 == 1
            let count = try reader.uint(4, "ipma")
            guard count <= Self.maxEntries else { throw .unsupported(format, "has more parts than we can check") }
            for _ in 0..<count {
                let id = UInt32(try reader.uint(version < 1 ? 2 : 4, "ipma"))
                guard associated.insert(id).inserted else { throw .corrupt(format, "item \(id) has two property lists") }
                var indices: [Int] = []
                for _ in 0..<(try reader.uint(1, "ipma")) {
                    // The top bit marks an essential property; the rest is a 1-based index, 0 for none.
                    let index = try reader.uint(wide ? 2 : 1, "ipma") & (wide ? 0x7FFF : 0x7F)
                    guard index <= properties.count else { throw .corrupt(format, "item \(id) has a property the file lacks") }
                    if index > 0 { indices.append(index - 1) }
                }
                items[id, default: Item()].properties = indices
            }
        }
    }

    /// `iref`: `dimg` and `auxl` references, with 16-bit item numbers in version 0 and 32-bit ones after.
    mutating func readReferences(_ box: ISOBMFFBox) throws(ImagingError) {
        var reader = BoxReader(bytes, box.payload, format: format)
        let size = try reader.uint(1, "iref") == 0 ? 2 : 4
        try reader.skip(3, "iref")
        var total = 0
        for reference in try reader.boxes(limit: Self.maxEntries) {
            var entry = BoxReader(bytes, reference.payload, format: format)
            let from = UInt32(try entry.uint(size, "iref"))
            var to: [UInt32] = []
            for _ in 0..<(try entry.uint(2, "iref")) {
                to.append(UInt32(try entry.uint(size, "iref")))
            }
            total += to.count
            guard total <= Self.maxEntries else { throw .unsupported(format, "has more parts than we can check") }
            switch reference.type {
            case .dimg: ingredients[from, default: []] += to
            case .auxl:
                for image in to { auxiliaries[image, default: []].append(from) }
            default: break
            }
        }
    }
}
