/// Helpers shared by the fuzz targets.
///
/// A broken property must end the process so libFuzzer records the input: `require` traps with a message
/// naming the property, which libFuzzer reports as a deadly signal and saves as `crash-…`.
public enum Fuzz {
    /// The input libFuzzer passes to `LLVMFuzzerTestOneInput`, copied into an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Traps with `message` unless `condition` holds.
    /// - Parameters:
    ///   - condition: the property being checked.
    ///   - message: what was expected, with the values involved; built only on failure.
    public static func require(
        _ condition: Bool,
        _ message: @autoclosure () -> String,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        if !condition {
            fatalError("fuzz property failed: \(message())", file: file, line: line)
        }
    }

    /// Traps with `message`: a property that cannot be expressed as one condition failed.
    public static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("fuzz property failed: \(message)", file: file, line: line)
    }

    /// The input split at every `separator` byte, keeping empty pieces, so one input can carry several fields.
    public static func fields(_ bytes: [UInt8], separator: UInt8) -> [ArraySlice<UInt8>] {
        bytes.split(separator: separator, omittingEmptySubsequences: false)
    }

    /// Whether `needle` occurs in `haystack` (naive search: inputs are small).
    public static func contains(_ haystack: some Collection<UInt8>, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        let hay = Array(haystack)
        guard hay.count >= needle.count else { return false }
        for start in 0...(hay.count - needle.count) where hay[start] == needle[0] {
            if hay[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    /// A short printable form of bytes for failure messages.
    public static func show(_ bytes: some Sequence<UInt8>) -> String {
        String(decoding: Array(bytes.prefix(200)), as: UTF8.self).debugDescription
    }
}
