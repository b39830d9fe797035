/// Why a place table could not be loaded.
public struct PlaceIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad cause, for callers that react differently to a missing file and a broken one.
    public enum Kind: Sendable, Equatable {
        /// The file does not exist or cannot be read.
        case unreadable
        /// The header lacks a required column.
        case missingColumns
        /// Not a single row was usable.
        case noRows
    }

    /// The broad cause.
    public let kind: Kind
    /// A message naming the file and what is wrong with it.
    public let description: String

    static func unreadable(_ path: String, _ reason: String) -> PlaceIndexError {
        PlaceIndexError(
            kind: .unreadable,
            description:
                "place table \(path) cannot be read (\(reason)); run `make places-data` or set GRAIN_PLACES_CSV")
    }

    static func missingColumns(_ path: String, _ missing: [String]) -> PlaceIndexError {
        PlaceIndexError(
            kind: .missingColumns,
            description: "place table \(path) has no column(s) \(missing.joined(separator: ", ")) in its header")
    }

    static func noRows(_ path: String, skipped: Int) -> PlaceIndexError {
        PlaceIndexError(kind: .noRows, description: "place table \(path) has no usable rows (\(skipped) skipped)")
    }
}
