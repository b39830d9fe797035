import Foundation
import MappedFiles

/// Offline place search: the populated places whose name, alternate name (other languages and spellings) or a later
/// word of the name starts with what was typed, or nearly does (one or two typos), ranked by population and, when
/// the photo's position is known, by distance to it. Case and accents do not matter (`SearchKey`).
///
/// The table (`scripts/place-names.py`: GeoNames cities1000 with populations and alternate names) is mapped, not
/// read: keys and names stay in the page cache, and the process holds about 12 bytes per key and 40 per place.
public final class PlaceSearch: Sendable {
    let file: MappedFile
    let table: PlaceNameTable
    /// `log10(population + 100)` for each row: the ranking's main term.
    let weights: [Float]
    /// Row numbers in GeoNames id order, for `place(id:)`.
    let byID: [UInt32]
    /// Each country's English name, folded, for a qualifier like `paris, france`.
    let countryKeys: [UInt16: [UInt8]]

    /// The number of places loaded.
    public var count: Int { table.ids.count }

    /// The number of search keys (names, alternate names and later words of names).
    public var keyCount: Int { table.keys.count }

    /// Rows that were malformed and left out.
    public var skippedRows: Int { table.skippedRows }

    /// Maps and indexes a place search table.
    /// - Parameter csvPath: A CSV with a header naming `id`, `lat`, `lon`, `population`, `cc`, `region`, `name` and
    ///   `keys` (the layout `make places-data` writes to `.build/places/place-names.csv`).
    /// - Throws: `PlaceIndexError` when the file is missing or unreadable, lacks a column, or has no usable row.
    public init(csvPath: String) throws(PlaceIndexError) {
        let file = try Self.map(csvPath)
        var table = try PlaceNameTable.parse(file.bytes, path: csvPath)
        table.keys = Self.sorted(table.keys, in: file.bytes)
        self.file = file
        self.table = table
        weights = table.populations.map { Float(log10(Double($0) + 100)) }
        byID = table.ids.indices.map(UInt32.init).sorted { table.ids[Int($0)] < table.ids[Int($1)] }
        let english = Locale(identifier: "en_US")
        var countryKeys: [UInt16: [UInt8]] = [:]
        for code in Set(table.countries) {
            let text = String(decoding: [UInt8(code >> 8), UInt8(code & 0xFF)], as: UTF8.self)
            if let name = english.localizedString(forRegionCode: text) { countryKeys[code] = SearchKey.fold(name) }
        }
        self.countryKeys = countryKeys
    }

    /// The best matches for what was typed.
    /// - Parameters:
    ///   - text: A place name, optionally followed by a comma and a region or country (`springfield, illinois`).
    ///     Cut to `SearchKey.maximumBytes` once folded.
    ///   - near: The photo's position, when known: nearer places rank higher. It is not retained.
    ///   - limit: At most this many results (1...50).
    /// - Returns: Places, best first; empty when nothing matches or the text has no letter or digit.
    public func search(_ text: String, near: (latitude: Double, longitude: Double)? = nil, limit: Int = 8) -> [PlaceSearchResult] {
        let parts = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        let query = SearchKey.fold(String(parts.first ?? ""))
        guard !query.isEmpty else { return [] }
        let qualifier = parts.count > 1 ? SearchKey.fold(String(parts[1])) : []
        var ranking = Ranking(
            search: self, limit: min(50, max(1, limit)), near: near.flatMap(Ranking.Origin.init), qualifier: qualifier)
        collectPrefixMatches(query, into: &ranking)
        // Typos are looked for only when what was typed, as typed, does not fill the list: a query that already
        // names enough places is most likely spelled right, and the near-match walk is the slow part.
        let budget = Self.typoBudget(query)
        if budget > 0, ranking.entries.count < ranking.limit { collectNearMatches(query, budget: budget, into: &ranking) }
        return ranking.results()
    }

    /// The place with this GeoNames id, as a search result would give it (what a form posts back).
    public func place(id: Int) -> PlaceSearchResult? {
        guard let id = Int32(exactly: id) else { return nil }
        var low = 0
        var high = byID.count
        while low < high {
            let mid = (low + high) / 2
            if table.ids[Int(byID[mid])] < id { low = mid + 1 } else { high = mid }
        }
        guard low < byID.count, table.ids[Int(byID[low])] == id else { return nil }
        return result(row: Int(byID[low]), kilometres: nil)
    }

    /// How many typos a query may carry: none while it is short (every short prefix is nearly something),
    /// one from four characters, two from eight.
    static func typoBudget(_ query: [UInt8]) -> Int {
        let characters = String(decoding: query, as: UTF8.self).unicodeScalars.count
        return characters >= 8 ? 2 : (characters >= 4 ? 1 : 0)
    }

    func result(row: Int, kilometres: Double?) -> PlaceSearchResult {
        let span = table.names[row]
        let name: String
        if span.escaped {
            name = CSVRecordReader(bytes: file.bytes).string(
                CSVRecordReader.Field(start: Int(span.start), end: Int(span.start + span.length), hasEscapedQuotes: true))
        } else {
            name = String(decoding: UnsafeBufferPointer(rebasing: file.bytes[Int(span.start)..<Int(span.start + span.length)]), as: UTF8.self)
        }
        let regionIndex = Int(table.regionIndexes[row])
        let code = table.countries[row]
        let place = Place(
            name: name, region: regionIndex >= 0 ? table.regions[regionIndex] : nil,
            countryCode: String(decoding: [UInt8(code >> 8), UInt8(code & 0xFF)], as: UTF8.self),
            latitude: table.latitudes[row], longitude: table.longitudes[row])
        return PlaceSearchResult(
            id: Int(table.ids[row]), place: place, population: Int(table.populations[row]), kilometres: kilometres)
    }
}

/// One place a search found.
public struct PlaceSearchResult: Sendable, Equatable {
    /// The GeoNames id: what a form posts to say which place was chosen.
    public var id: Int
    /// Name, region, country and the place's own centre.
    public var place: Place
    /// GeoNames' population figure (0 when unknown).
    public var population: Int
    /// Great-circle distance from the search's `near` position, when one was given.
    public var kilometres: Double?

    public init(id: Int, place: Place, population: Int, kilometres: Double? = nil) {
        self.id = id
        self.place = place
        self.population = population
        self.kilometres = kilometres
    }
}

extension PlaceSearch {
    /// The largest table mapped: the real search table is about 21 MB.
    static let maximumTableSize = 512 * 1024 * 1024

    /// Maps the search table, saying what is wrong with a file that is not one.
    static func map(_ path: String) throws(PlaceIndexError) -> MappedFile {
        do {
            return try MappedFile(path: path, maximumSize: maximumTableSize)
        } catch {
            switch error {
            case .empty: throw .noRows(path, skipped: 0)
            case .unreadable(_, let reason): throw .unreadable(path, reason)
            case .notRegularFile: throw .unreadable(path, "not a regular file")
            case .tooLarge: throw .unreadable(path, "larger than \(maximumTableSize) bytes")
            }
        }
    }
}
