import Foundation

/// The rows of the place search table (`id,lat,lon,population,cc,region,name,keys`, written by
/// `scripts/place-names.py`), parsed in place: names and keys stay byte ranges of the mapped file, regions are
/// interned (a few thousand distinct), and only numbers are copied out.
struct PlaceNameTable {
    /// A byte range of the file.
    struct Span {
        var start: UInt32
        var length: UInt32
        /// The field has `""` escapes, so its text must go through the CSV reader rather than the raw bytes.
        var escaped: Bool
    }

    /// Where a search key came from, which decides how well a match on it counts.
    enum KeyKind: UInt8 {
        /// The place's own name.
        case name = 0
        /// One of its alternate names (other languages and spellings).
        case alternate = 1
        /// A later word of its own name (`york` in `new york`).
        case word = 2
    }

    /// One search key: a byte range of the file, and the row it names.
    struct Key {
        var start: UInt32
        var length: UInt8
        var kind: KeyKind
        var row: UInt32
    }

    var ids: [Int32] = []
    var latitudes: [Double] = []
    var longitudes: [Double] = []
    var populations: [UInt32] = []
    /// ISO 3166-1 alpha-2 as two ASCII bytes, upper case.
    var countries: [UInt16] = []
    /// Index into `regions`, or -1.
    var regionIndexes: [Int16] = []
    var names: [Span] = []
    var regions: [String] = []
    /// Each region folded, for a query's qualifier (`springfield, illinois`).
    var regionKeys: [[UInt8]] = []
    var keys: [Key] = []
    var skippedRows = 0

    static let requiredColumns = ["id", "lat", "lon", "population", "cc", "region", "name", "keys"]
    /// More rows than the GeoNames table will ever have; row numbers are 32-bit.
    static let maximumRows = 4_000_000
    /// Each region is an `Int16`.
    static let maximumRegions = Int(Int16.max)

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(PlaceIndexError) -> PlaceNameTable {
        var reader = CSVRecordReader(bytes: bytes)
        var fields: [CSVRecordReader.Field] = []
        guard reader.next(into: &fields) else { throw .noRows(path, skipped: 0) }
        let header = fields.map { reader.string($0).trimmingCharacters(in: .whitespaces).lowercased() }
        let column = requiredColumns.compactMap { name in header.firstIndex(of: name) }
        guard column.count == requiredColumns.count, let last = column.max() else {
            throw .missingColumns(path, requiredColumns.filter { !header.contains($0) })
        }
        let width = last + 1

        var table = PlaceNameTable()
        var regionSlots: [String: Int16] = [:]
        let estimate = bytes.count / 120
        table.ids.reserveCapacity(estimate)
        table.latitudes.reserveCapacity(estimate)
        table.longitudes.reserveCapacity(estimate)
        table.keys.reserveCapacity(estimate * 6)
        while reader.next(into: &fields) {
            if fields.count == 1, fields[0].start == fields[0].end { continue }  // blank line
            guard fields.count >= width, table.ids.count < maximumRows,
                let id = reader.decimal(fields[column[0]]), id >= 0, id <= Double(Int32.max), id == id.rounded(),
                let latitude = reader.decimal(fields[column[1]]), (-90.0...90.0).contains(latitude),
                let longitude = reader.decimal(fields[column[2]]), (-180.0...180.0).contains(longitude),
                let population = reader.decimal(fields[column[3]]), population >= 0, population <= Double(UInt32.max)
            else {
                table.skippedRows += 1
                continue
            }
            let cc = fields[column[4]]
            let name = fields[column[6]]
            guard cc.end - cc.start == 2, isASCIILetter(bytes[cc.start]), isASCIILetter(bytes[cc.start + 1]),
                name.end > name.start, name.end - name.start <= 1024
            else {
                table.skippedRows += 1
                continue
            }
            let row = UInt32(table.ids.count)
            let keysBefore = table.keys.count
            table.addKeys(fields[column[7]], row: row, bytes: bytes)
            guard table.keys.count > keysBefore else {
                table.skippedRows += 1
                continue
            }
            let region = reader.string(fields[column[5]])
            var regionIndex: Int16 = -1
            if !region.isEmpty {
                if let slot = regionSlots[region] {
                    regionIndex = slot
                } else if table.regions.count < maximumRegions {
                    regionIndex = Int16(table.regions.count)
                    regionSlots[region] = regionIndex
                    table.regions.append(region)
                    table.regionKeys.append(SearchKey.fold(region))
                }
            }
            table.ids.append(Int32(id))
            table.latitudes.append(latitude)
            table.longitudes.append(longitude)
            table.populations.append(UInt32(population))
            table.countries.append(UInt16(upper(bytes[cc.start])) << 8 | UInt16(upper(bytes[cc.start + 1])))
            table.regionIndexes.append(regionIndex)
            table.names.append(Span(start: UInt32(name.start), length: UInt32(name.end - name.start), escaped: name.hasEscapedQuotes))
        }
        guard !table.ids.isEmpty else { throw .noRows(path, skipped: table.skippedRows) }
        return table
    }

    /// Splits the `|`-separated keys field; the first key is the name, later words of it become keys too.
    private mutating func addKeys(_ field: CSVRecordReader.Field, row: UInt32, bytes: UnsafeBufferPointer<UInt8>) {
        // A quoted keys field would mean the file was not written by our script: keys never hold a quote or comma.
        guard !field.hasEscapedQuotes else { return }
        var start = field.start
        var first = true
        while start <= field.end {
            var end = start
            while end < field.end, bytes[end] != UInt8(ascii: "|") { end += 1 }
            let length = end - start
            if length > 0, length <= SearchKey.maximumBytes {
                keys.append(Key(start: UInt32(start), length: UInt8(length), kind: first ? .name : .alternate, row: row))
                if first {
                    for i in start..<end where bytes[i] == 0x20 && i + 1 < end {
                        keys.append(Key(start: UInt32(i + 1), length: UInt8(end - i - 1), kind: .word, row: row))
                    }
                }
            }
            first = false
            start = end + 1
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
    }
}
