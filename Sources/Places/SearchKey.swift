import Foundation

/// How place names and queries are compared: lower case, compatibility decomposition (`ﬁ` is `fi`, `²` is `2`),
/// combining marks dropped (`Zürich` is `zurich`), a few letters that do not decompose spelled out (`ß` is `ss`,
/// `ł` is `l`), and every run of punctuation, symbols, separators and controls a single space, trimmed.
///
/// `scripts/place-names.py` folds the table's names the same way when it writes the search table, so that loading
/// only parses; `SearchKeyTests` checks the two agree on the real table.
enum SearchKey {
    /// Letters people type without their stroke or ligature; kept identical to `SPELLED_OUT` in the script.
    /// Final sigma becomes sigma because Swift's `lowercased()` and Python's `lower()` disagree on it.
    static let spelledOut: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "ł": "l", "þ": "th",
        "ŧ": "t", "ŀ": "l", "ς": "σ",
    ]

    /// The longest key the table keeps (UTF-8 bytes); queries are cut to it.
    static let maximumBytes = 96

    /// The folded UTF-8 bytes of `text`, at most `maximumBytes` (cut at a character boundary).
    static func fold(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var pendingSpace = false
        for scalar in text.lowercased().decomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.properties.canonicalCombiningClass != .notReordered { continue }
            if isSeparator(scalar) {
                pendingSpace = !out.isEmpty
                continue
            }
            var piece: [UInt8] = []
            if let spelled = spelledOut[scalar] { piece = Array(spelled.utf8) } else { piece = Array(String(scalar).utf8) }
            let needed = piece.count + (pendingSpace ? 1 : 0)
            if out.count + needed > maximumBytes { break }
            if pendingSpace { out.append(0x20) }
            pendingSpace = false
            out += piece
        }
        return out
    }

    /// Punctuation, symbols, separators and controls (Unicode categories P*, S*, Z*, C*): what becomes a space.
    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return !((0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value))
        }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
            .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate, .privateUse,
            .unassigned:
            return true
        default:
            return false
        }
    }
}
