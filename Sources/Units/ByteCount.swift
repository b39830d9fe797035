/// Byte counts as people read and write them, in decimal units as disks are sold: the quota an owner types
/// (`500M`), the page that lists storage use and the refusal of an upload over a quota all read the same.
public enum ByteCount {
    /// `12 MB`, `1.5 GB`, `512 bytes`.
    public static func text(_ bytes: Int) -> String {
        let units = [(1_000_000_000_000, "TB"), (1_000_000_000, "GB"), (1_000_000, "MB"), (1_000, "kB")]
        for (size, unit) in units where bytes >= size {
            let value = Double(bytes) / Double(size)
            let rounded = value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
            return (rounded.hasSuffix(".0") ? String(rounded.dropLast(2)) : rounded) + " " + unit
        }
        return "\(bytes) bytes"
    }

    /// A count as people write it: `2000000`, `500K`, `500M`, `1.5G`, `2 GB` (a trailing `B` is allowed; case does
    /// not matter). Nil for anything else, a negative or an absurdly large number.
    public static func parse(_ text: String) -> Int? {
        var rest = Substring(text.uppercased()).drop { $0 == " " }
        while rest.last == " " { rest = rest.dropLast() }
        if rest.hasSuffix("B") { rest = rest.dropLast() }
        var scale = 1.0
        for (suffix, factor) in [("K", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12)] where rest.hasSuffix(suffix) {
            rest = rest.dropLast()
            scale = factor
        }
        while rest.last == " " { rest = rest.dropLast() }
        guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let number = Double(rest) else { return nil }
        let bytes = number * scale
        guard bytes >= 0, bytes < 1e16 else { return nil }
        return Int(bytes.rounded())
    }
}
