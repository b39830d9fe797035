/// Finding candidates: keys that start with the query, then keys whose start is within a typo or two of it.
extension PlaceSearch {
    /// Every key that begins with `query`.
    func collectPrefixMatches(_ query: [UInt8], into ranking: inout Ranking) {
        query.withUnsafeBufferPointer { query in
            let start = lowerBound(query)
            let end = prefixEnd(query, from: start)
            for index in start..<end {
                ranking.consider(index, exact: key(index).count == query.count, typos: 0)
            }
        }
    }

    /// Every key with a prefix within `budget` edits of `query` (Levenshtein with adjacent transpositions, on bytes).
    ///
    /// The sorted keys are walked as an implicit trie: a key shares the rows of the edit-distance table computed
    /// for the previous key up to their common prefix, so each distinct prefix is computed once. A prefix whose
    /// row has no cell within the budget (nothing below it can match), or whose best match cannot improve further
    /// down, is skipped whole by a binary search to the end of its run.
    ///
    /// Only keys that share the query's first byte are walked: people rarely get the first letter wrong, and the
    /// walk over every key took about 25x longer (a two-typo query in a debug build: 430 ms against 17 ms).
    func collectNearMatches(_ query: [UInt8], budget: Int, into ranking: inout Ranking) {
        let m = query.count
        let width = m + 1
        let maxDepth = m + budget
        var rows = [UInt8](repeating: 0, count: (maxDepth + 1) * width)
        for j in 0...m { rows[j] = UInt8(j) }
        var best = [UInt8](repeating: UInt8(m), count: maxDepth + 1)
        var path = [UInt8](repeating: 0, count: maxDepth)
        let limit = UInt8(budget)
        var depth = 0
        guard let first = query.first else { return }
        var index = 0
        var count = 0
        [first].withUnsafeBufferPointer { first in
            index = lowerBound(first)
            count = prefixEnd(first, from: index)
        }
        query.withUnsafeBufferPointer { query in
            rows.withUnsafeMutableBufferPointer { rows in
                path.withUnsafeMutableBufferPointer { path in
                    while index < count {
                        let key = self.key(index)
                        var shared = 0
                        while shared < depth, shared < key.count, key[shared] == path[shared] { shared += 1 }
                        depth = shared
                        var next = index + 1
                        while depth < key.count {
                            if depth == maxDepth {
                                // Deeper prefixes are more than `budget` longer than the query.
                                next = prefixEnd(UnsafeBufferPointer(rebasing: path[0..<depth]), from: index)
                                break
                            }
                            let byte = key[depth]
                            path[depth] = byte
                            let rowMinimum = Self.fillRow(rows, depth: depth + 1, byte: byte, path: path, query: query)
                            depth += 1
                            let distance = rows[depth * width + m]
                            best[depth] = min(best[depth - 1], distance)
                            if distance <= limit, distance < best[depth - 1] {
                                let end = prefixEnd(UnsafeBufferPointer(rebasing: path[0..<depth]), from: index)
                                for matched in index..<end { ranking.consider(matched, exact: false, typos: Int(distance)) }
                            }
                            if rowMinimum > limit || rowMinimum >= best[depth] {
                                next = prefixEnd(UnsafeBufferPointer(rebasing: path[0..<depth]), from: index)
                                break
                            }
                        }
                        index = next
                    }
                }
            }
        }
    }

    /// Row `depth` of the edit-distance table (the key's first `depth` bytes against each prefix of the query) from
    /// the rows above it; returns the row's smallest cell.
    @inline(__always)
    static func fillRow(
        _ rows: UnsafeMutableBufferPointer<UInt8>, depth: Int, byte: UInt8, path: UnsafeMutableBufferPointer<UInt8>,
        query: UnsafeBufferPointer<UInt8>
    ) -> UInt8 {
        let width = query.count + 1
        let row = depth * width
        let above = row - width
        rows[row] = UInt8(depth)
        var minimum = rows[row]
        for j in 1..<width {
            var cell = min(rows[above + j] + 1, rows[row + j - 1] + 1)
            cell = min(cell, rows[above + j - 1] + (query[j - 1] == byte ? 0 : 1))
            if depth >= 2, j >= 2, query[j - 2] == byte, query[j - 1] == path[depth - 2] {
                cell = min(cell, rows[above - width + j - 2] + 1)
            }
            rows[row + j] = cell
            minimum = min(minimum, cell)
        }
        return minimum
    }
}
