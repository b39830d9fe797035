public import Imaging

/// Builds EXIF (TIFF) blocks and splices them into JPEG and PNG files, so the EXIF reader is tested against
/// structures written from the specification rather than by a library.
public struct ExifBuilder {
    /// One IFD entry; `value` holds the raw value bytes (already in the block's byte order), inline when at most
    /// four bytes and placed after the IFD otherwise, unless `offset` forces the pointer.
    public struct Entry {
        public var tag: Int
        public var type: Int
        public var count: Int
        public var value: [UInt8]
        public var offset: Int? = nil

        public init(tag: Int, type: Int, count: Int, value: [UInt8], offset: Int? = nil) {
            self.tag = tag
            self.type = type
            self.count = count
            self.value = value
            self.offset = offset
        }
    }

    public var littleEndian = true

    public init(littleEndian: Bool = true) { self.littleEndian = littleEndian }

    // MARK: Values

    public func short(_ tag: Int, _ value: Int) -> Entry {
        Entry(tag: tag, type: 3, count: 1, value: bytes(value, 2))
    }

    public func long(_ tag: Int, _ value: Int) -> Entry {
        Entry(tag: tag, type: 4, count: 1, value: bytes(value, 4))
    }

    public func ascii(_ tag: Int, _ text: String) -> Entry {
        let value = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: value.count, value: value)
    }

    public func rationals(_ tag: Int, _ values: [(Int, Int)]) -> Entry {
        Entry(tag: tag, type: 5, count: values.count, value: values.flatMap { bytes($0.0, 4) + bytes($0.1, 4) })
    }

    /// Degrees, minutes and hundredths of seconds as three rationals, as cameras write them.
    public func degrees(_ tag: Int, _ value: Double) -> Entry {
        let magnitude = abs(value)
        let whole = Int(magnitude)
        let minutes = Int((magnitude - Double(whole)) * 60)
        let seconds = ((magnitude - Double(whole)) * 60 - Double(minutes)) * 60
        return rationals(tag, [(whole, 1), (minutes, 1), (Int((seconds * 100).rounded()), 100)])
    }

    /// The usual camera fields: IFD0 orientation, make and model, an Exif IFD with the date, a GPS IFD.
    public func fields(
        orientation: Int? = nil,
        gps: GPSCoordinate? = nil,
        date: String? = nil,
        make: String? = nil,
        model: String? = nil
    ) -> [UInt8] {
        var ifd0: [Entry] = []
        if let make { ifd0.append(ascii(0x010F, make)) }
        if let model { ifd0.append(ascii(0x0110, model)) }
        if let orientation { ifd0.append(short(0x0112, orientation)) }
        var gpsEntries: [Entry] = []
        if let gps {
            gpsEntries = [
                ascii(1, gps.latitude < 0 ? "S" : "N"), degrees(2, gps.latitude),
                ascii(3, gps.longitude < 0 ? "W" : "E"), degrees(4, gps.longitude),
            ]
        }
        return tiff(ifd0: ifd0, exif: date.map { [ascii(0x9003, $0)] } ?? [], gps: gpsEntries)
    }

    // MARK: Layout

    /// A TIFF block: header, IFD0 at offset 8 (with sub-IFD pointers appended when those are non-empty), then the
    /// Exif IFD and the GPS IFD, each followed by its out-of-line values.
    public func tiff(ifd0: [Entry], exif: [Entry] = [], gps: [Entry] = []) -> [UInt8] {
        var first = ifd0
        if !exif.isEmpty { first.append(long(0x8769, 0)) }
        if !gps.isEmpty { first.append(long(0x8825, 0)) }
        let exifOffset = 8 + size(of: first)
        let gpsOffset = exifOffset + (exif.isEmpty ? 0 : size(of: exif))
        first = first.map { entry in
            var entry = entry
            if entry.tag == 0x8769 && entry.value == bytes(0, 4) { entry.value = bytes(exifOffset, 4) }
            if entry.tag == 0x8825 && entry.value == bytes(0, 4) { entry.value = bytes(gpsOffset, 4) }
            return entry
        }
        var block: [UInt8] = littleEndian ? [0x49, 0x49, 42, 0] : [0x4D, 0x4D, 0, 42]
        block += bytes(8, 4)
        block += directory(first, at: 8)
        if !exif.isEmpty { block += directory(exif, at: exifOffset) }
        if !gps.isEmpty { block += directory(gps, at: gpsOffset) }
        return block
    }

    private func size(of entries: [Entry]) -> Int {
        6 + entries.count * 12
            + entries.reduce(0) { $0 + ($1.value.count > 4 && $1.offset == nil ? $1.value.count : 0) }
    }

    private func directory(_ entries: [Entry], at offset: Int) -> [UInt8] {
        var table = bytes(entries.count, 2)
        var data: [UInt8] = []
        let dataStart = offset + 6 + entries.count * 12
        for entry in entries {
            table += bytes(entry.tag, 2) + bytes(entry.type, 2) + bytes(entry.count, 4)
            if let forced = entry.offset {
                table += bytes(forced, 4)
            } else if entry.value.count <= 4 {
                table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                table += bytes(dataStart + data.count, 4)
                data += entry.value
            }
        }
        return table + bytes(0, 4) + data
    }

    public func bytes(_ value: Int, _ size: Int) -> [UInt8] {
        let bigEndian = (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
        return littleEndian ? bigEndian.reversed() : bigEndian
    }

    // MARK: Containers

    /// An APP1 segment: marker, length, `Exif\0\0`, the TIFF block.
    public static func app1(_ tiff: [UInt8]) -> [UInt8] {
        let length = 2 + 6 + tiff.count
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("Exif".utf8) + [0, 0] + tiff
    }

    /// Inserts segments after the JFIF APP0 that libturbojpeg writes, so the reader has to walk past it.
    public static func splice(_ segments: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        precondition(jpeg[2] == 0xFF && jpeg[3] == 0xE0, "expected a JFIF APP0 first")
        let app0End = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        return Array(jpeg[0..<app0End]) + segments + Array(jpeg[app0End...])
    }

    /// A small JPEG carrying `tiff` in an APP1 segment.
    public static func jpeg(_ tiff: [UInt8], width: Int = 16, height: Int = 8) throws -> [UInt8] {
        let plain = try Imaging.encodeJPEG(TestImages.gradient(width: width, height: height), quality: 80)
        return splice(app1(tiff), into: plain)
    }

    /// Inserts an `eXIf` chunk right after IHDR.
    public static func png(_ tiff: [UInt8], into png: [UInt8]) -> [UInt8] {
        Array(png[0..<33]) + PNGBuilder.chunk("eXIf", tiff) + Array(png[33...])
    }
}

/// A small seeded generator (SplitMix64) so fuzz-style tests are reproducible.
public struct SeededRandom: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
