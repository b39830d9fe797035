import MappedFiles

/// The sorted key list: byte order of the folded keys, so every key with a given prefix is one contiguous run.
extension PlaceSearch {
    /// The bytes of key `index`.
    @inline(__always)
    func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let key = table.keys[index]
        return UnsafeBufferPointer(rebasing: file.bytes[Int(key.start)..<Int(key.start) + Int(key.length)])
    }

    /// The first key not less than `query`.
    func lowerBound(_ query: UnsafeBufferPointer<UInt8>) -> Int {
        var low = 0
        var high = table.keys.count
        while low < high {
            let mid = (low + high) / 2
            if Self.compare(key(mid), query) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The end of the run of keys from `start` that begin with `prefix` (`start` must begin that run or be in it).
    func prefixEnd(_ prefix: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var low = start
        var high = table.keys.count
        while low < high {
            let mid = (low + high) / 2
            if Self.hasPrefix(key(mid), prefix) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let shared = min(a.count, b.count)
        var i = 0
        while i < shared {
            if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
            i += 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    static func hasPrefix(_ key: UnsafeBufferPointer<UInt8>, _ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard key.count >= prefix.count else { return false }
        var i = 0
        while i < prefix.count {
            if key[i] != prefix[i] { return false }
            i += 1
        }
        return true
    }

    /// Sorts keys by their bytes. The first eight bytes, packed big-endian into an integer, decide most comparisons,
    /// so the file is read only for keys that share them.
    static func sorted(_ keys: [PlaceNameTable.Key], in bytes: UnsafeBufferPointer<UInt8>) -> [PlaceNameTable.Key] {
        struct Item {
            var head: UInt64
            var key: PlaceNameTable.Key
        }
        var items = keys.map { key in
            var head: UInt64 = 0
            let start = Int(key.start)
            for i in 0..<8 { head = head << 8 | UInt64(i < Int(key.length) ? bytes[start + i] : 0) }
            return Item(head: head, key: key)
        }
        items.sort { a, b in
            if a.head != b.head { return a.head < b.head }
            let left = UnsafeBufferPointer(rebasing: bytes[Int(a.key.start)..<Int(a.key.start) + Int(a.key.length)])
            let right = UnsafeBufferPointer(rebasing: bytes[Int(b.key.start)..<Int(b.key.start) + Int(b.key.length)])
            let order = compare(left, right)
            return order != 0 ? order < 0 : a.key.row < b.key.row
        }
        return items.map(\.key)
    }
}
