import Foundation

/// Sizes and lengths as the messages people read write them.
enum Wording {
    /// `240 MB`, `12 KB`, `900 bytes`. A size is rounded up and a limit down, so a file over a limit never reads as
    /// the same number as the limit.
    static func bytes(_ count: Int, roundingUp: Bool) -> String {
        func scaled(_ unit: Double) -> Int {
            let value = Double(count) / unit
            return Int(roundingUp ? value.rounded(.up) : value.rounded(.down))
        }
        if count >= 1_000_000 { return "\(scaled(1_000_000)) MB" }
        if count >= 1_000 { return "\(scaled(1_000)) KB" }
        return count == 1 ? "1 byte" : "\(count) bytes"
    }

    /// A clip's length: `45 s`, `4 min 5 s`, `3 h 0 min`.
    static func length(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return whole % 60 == 0 ? "\(whole / 60) min" : "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }

    /// A limit: `10 minutes`, `1 minute`, `15 seconds`, `2.5 seconds`.
    static func limit(_ seconds: Double) -> String {
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 {
            let minutes = Int(seconds / 60)
            return minutes == 1 ? "1 minute" : "\(minutes) minutes"
        }
        if seconds == seconds.rounded() { return seconds == 1 ? "1 second" : "\(Int(seconds)) seconds" }
        return String(format: "%.1f seconds", seconds)
    }
}

extension Wording {
    /// An address-space limit in binary units, as `3 GB` or `512 MB`.
    static func memory(_ bytes: Int) -> String {
        let gigabytes = Double(bytes) / Double(1 << 30)
        if gigabytes >= 1 { return gigabytes == gigabytes.rounded() ? "\(Int(gigabytes)) GB" : String(format: "%.1f GB", gigabytes) }
        return "\(max(1, bytes >> 20)) MB"
    }
}
