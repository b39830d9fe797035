import Foundation

extension PlaceSearch {
    /// Keeps the best `limit` places seen, one entry per place (its best-scoring key).
    ///
    /// A place's score is `log10(population + 100)`, plus how well the key matched (its own name: 1.0 whole, 0.8 a
    /// prefix; an alternate name: 0.8 whole (three letters or more), −0.6 a prefix; a later word of the name: −1.0 whole, −1.5 a prefix; minus
    /// 1.2 per typo), minus
    /// `1.5 × log10(1 + km / 25)` when the photo's position is known (25 km costs 0.45, 2,500 km costs 3), minus 10
    /// when a qualifier was typed and names neither the place's region nor its country.
    struct Ranking {
        /// Where the photo was taken, in radians.
        struct Origin {
            var latitude: Double
            var longitude: Double
            var cosine: Double

            init?(_ position: (latitude: Double, longitude: Double)) {
                guard position.latitude.isFinite, position.longitude.isFinite, (-90.0...90.0).contains(position.latitude)
                else { return nil }
                latitude = position.latitude * .pi / 180
                longitude = position.longitude * .pi / 180
                cosine = cos(latitude)
            }
        }

        struct Entry {
            var row: UInt32
            var score: Float
            var kilometres: Double?
        }

        let search: PlaceSearch
        let limit: Int
        let near: Origin?
        let qualifier: [UInt8]
        private(set) var entries: [Entry] = []
        /// The lowest score in `entries` once it is full: anything not above it cannot enter.
        private var floor = -Float.infinity

        init(search: PlaceSearch, limit: Int, near: Origin?, qualifier: [UInt8]) {
            self.search = search
            self.limit = limit
            self.near = near
            self.qualifier = qualifier
            entries.reserveCapacity(limit)
        }

        static func matchBonus(_ kind: PlaceNameTable.KeyKind, exact: Bool) -> Float {
            switch kind {
            // The start of a place's own name outranks the start of one of its alternate names by 1.4 (a factor of
            // 25 in population): `pa` means Paris before Beijing (`Pa...` in some language) or Chongqing.
            case .name: exact ? 1.0 : 0.8
            case .alternate: exact ? 0.8 : -0.6
            case .word: exact ? -1.0 : -1.5
            }
        }

        mutating func consider(_ keyIndex: Int, exact: Bool, typos: Int) {
            let key = search.table.keys[keyIndex]
            let row = Int(key.row)
            // Every other term only lowers the score, so most candidates stop here.
            // A one- or two-letter alternate name is a code or an abbreviation (Chongqing's `Pa`), not a name anyone
            // types meaning that place: it counts as a prefix, not a whole match.
            let whole = exact && (key.kind != .alternate || key.length > 2)
            var score = search.weights[row] + Self.matchBonus(key.kind, exact: whole) - 1.2 * Float(typos)
            guard score > floor else { return }
            if !qualifier.isEmpty, !qualifies(row) {
                score -= 10
                guard score > floor else { return }
            }
            var kilometres: Double?
            if let near {
                let distance = Self.kilometres(from: near, latitude: search.table.latitudes[row], longitude: search.table.longitudes[row])
                kilometres = distance
                score -= Float(1.5 * log10(1 + distance / 25))
                guard score > floor else { return }
            }
            insert(Entry(row: key.row, score: score, kilometres: kilometres))
        }

        private mutating func insert(_ entry: Entry) {
            if let existing = entries.firstIndex(where: { $0.row == entry.row }) {
                guard entry.score > entries[existing].score else { return }
                entries[existing] = entry
            } else if entries.count < limit {
                entries.append(entry)
            } else if let lowest = entries.indices.min(by: { entries[$0].score < entries[$1].score }) {
                entries[lowest] = entry
            }
            if entries.count == limit { floor = entries.map(\.score).min() ?? floor }
        }

        /// Whether the typed qualifier starts the region, a word of it, the country's English name, or is its code.
        func qualifies(_ row: Int) -> Bool {
            let code = search.table.countries[row]
            if qualifier.count == 2, qualifier[0] == UInt8(code >> 8) | 0x20, qualifier[1] == UInt8(code & 0xFF) | 0x20 {
                return true
            }
            if let country = search.countryKeys[code], Self.startsAWord(country, qualifier) { return true }
            let region = Int(search.table.regionIndexes[row])
            return region >= 0 && Self.startsAWord(search.table.regionKeys[region], qualifier)
        }

        static func startsAWord(_ text: [UInt8], _ prefix: [UInt8]) -> Bool {
            guard prefix.count <= text.count else { return false }
            var start = 0
            while start + prefix.count <= text.count {
                if text[start..<(start + prefix.count)].elementsEqual(prefix) { return true }
                guard let space = text[start...].firstIndex(of: 0x20) else { return false }
                start = space + 1
            }
            return false
        }

        /// Great-circle distance (haversine, mean Earth radius).
        static func kilometres(from origin: Origin, latitude: Double, longitude: Double) -> Double {
            let phi = latitude * .pi / 180
            let dPhi = phi - origin.latitude
            let dLambda = longitude * .pi / 180 - origin.longitude
            let a = sin(dPhi / 2) * sin(dPhi / 2) + origin.cosine * cos(phi) * sin(dLambda / 2) * sin(dLambda / 2)
            return 2 * 6371.0088 * asin(min(1, sqrt(a)))
        }

        /// Best first; ties by population, then by id so the order never depends on the walk.
        func results() -> [PlaceSearchResult] {
            let table = search.table
            return
                entries
                .sorted { a, b in
                    if a.score != b.score { return a.score > b.score }
                    let (pa, pb) = (table.populations[Int(a.row)], table.populations[Int(b.row)])
                    return pa != pb ? pa > pb : table.ids[Int(a.row)] < table.ids[Int(b.row)]
                }
                .map { search.result(row: Int($0.row), kilometres: $0.kilometres) }
        }
    }
}
