import Foundation

/// ffmpeg's `-progress` output: blocks of `key=value` lines, of which only the time written so far matters here.
enum ProgressLine {
    /// Microseconds of output written, from `out_time_us=` or `out_time_ms=` (which ffmpeg also prints in
    /// microseconds, despite its name); nil for other lines and for `N/A`.
    static func outputMicroseconds(_ line: Substring) -> Int? {
        guard let equals = line.firstIndex(of: "=") else { return nil }
        let key = line[..<equals]
        guard key == "out_time_us" || key == "out_time_ms" else { return nil }
        return Int(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))
    }

    /// How much of `totalSeconds` is written, in 0...1.
    static func fraction(_ line: Substring, totalSeconds: Double) -> Double? {
        guard let microseconds = outputMicroseconds(line), totalSeconds > 0 else { return nil }
        return min(1, max(0, Double(microseconds) / 1_000_000 / totalSeconds))
    }
}
