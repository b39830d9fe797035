import Foundation

extension JSONEncoder {
    /// Sorted keys and unescaped slashes: stable bytes for storage and tests.
    static var canonical: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
