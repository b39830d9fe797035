/// Picks the wanted fields out of IFD0, the Exif IFD and the GPS IFD.
struct ExifFields {
    private enum Tag {
        static let make = 0x010F
        static let model = 0x0110
        static let orientation = 0x0112
        static let exifIFD = 0x8769
        static let gpsIFD = 0x8825
        static let dateTimeOriginal = 0x9003
        static let latitudeRef = 1
        static let latitude = 2
        static let longitudeRef = 3
        static let longitude = 4
    }

    /// Longer strings than any camera writes are dropped rather than passed on.
    static let maxTextLength = 256

    private let tiff: TIFFReader

    init(_ tiff: TIFFReader) {
        self.tiff = tiff
    }

    func metadata() -> ExifMetadata {
        var result = ExifMetadata()
        // Sub-IFD pointers may point back at an IFD already read; each offset is read at most once.
        var visited: Set<Int> = []
        guard let ifd0 = directory(at: tiff.firstIFDOffset, visited: &visited) else { return result }
        if let entry = ifd0[Tag.orientation], let value = tiff.integer(entry), (1...8).contains(value) {
            result.orientation = value
        }
        result.make = ifd0[Tag.make].flatMap(text)
        result.model = ifd0[Tag.model].flatMap(text)
        if let pointer = ifd0[Tag.exifIFD].flatMap(tiff.integer),
            let exif = directory(at: pointer, visited: &visited)
        {
            result.dateTimeOriginal = exif[Tag.dateTimeOriginal].flatMap(text)
        }
        if let pointer = ifd0[Tag.gpsIFD].flatMap(tiff.integer),
            let gps = directory(at: pointer, visited: &visited)
        {
            result.gps = coordinate(gps)
        }
        return result
    }

    /// The entries of an IFD by tag (the first entry wins), or nil if unreadable or already visited.
    private func directory(at offset: Int, visited: inout Set<Int>) -> [Int: TIFFReader.Entry]? {
        guard visited.insert(offset).inserted, let entries = tiff.entries(at: offset) else { return nil }
        return Dictionary(entries.map { ($0.tag, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Signed degrees from the GPS IFD, or nil unless both axes parse and lie on the globe.
    private func coordinate(_ gps: [Int: TIFFReader.Entry]) -> GPSCoordinate? {
        guard let latitude = degrees(gps[Tag.latitude], reference: gps[Tag.latitudeRef], negative: "S", positive: "N"),
            let longitude = degrees(
                gps[Tag.longitude],
                reference: gps[Tag.longitudeRef],
                negative: "W",
                positive: "E"
            ),
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return GPSCoordinate(latitude: latitude, longitude: longitude)
    }

    /// Degrees, minutes and seconds combined and signed by the reference letter; a missing reference counts as
    /// north or east, an unknown one rejects the value.
    private func degrees(
        _ entry: TIFFReader.Entry?,
        reference: TIFFReader.Entry?,
        negative: String,
        positive: String
    ) -> Double? {
        guard let entry, let parts = tiff.rationals(entry), parts.count >= 3 else { return nil }
        let value = parts[0] + parts[1] / 60 + parts[2] / 3600
        guard value.isFinite else { return nil }
        guard let reference else { return value }
        switch text(reference)?.uppercased() {
        case positive: return value
        case negative: return -value
        default: return nil
        }
    }

    /// A string field up to its first NUL, trimmed; nil if empty, too long, not UTF-8 or holding control characters.
    private func text(_ entry: TIFFReader.Entry) -> String? {
        guard let raw = tiff.text(entry), raw.count <= Self.maxTextLength + 1 else { return nil }
        let content = raw.prefix { $0 != 0 }
        guard !content.contains(where: { $0 < 0x20 || $0 == 0x7F }),
            let string = String(validating: content, as: UTF8.self)
        else { return nil }
        let trimmed = string.trimmingSpaces
        return trimmed.isEmpty || trimmed.utf8.count > Self.maxTextLength ? nil : trimmed
    }
}

extension String {
    /// Without leading and trailing spaces (cameras pad Make and Model with them); Foundation-free.
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }),
            let last = scalars.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(scalars[first...last])
    }
}
