import ATProto
import Foundation

/// "12m", "3h", then a date such as "Mar 15", the way Grain labels story times.
enum RelativeTime {
    static func short(_ time: UTCTime, now: UTCTime) -> String {
        let seconds = max(0, (now.microseconds - time.microseconds) / 1_000_000)
        if seconds < 60 { return "now" }
        if seconds < 3600 { return "\(seconds / 60)m" }
        if seconds < 86400 { return "\(seconds / 3600)h" }
        return monthDay(time)
    }

    /// Spelled out for alt text and screen readers: "3 hours ago".
    static func long(_ time: UTCTime, now: UTCTime) -> String {
        let seconds = max(0, (now.microseconds - time.microseconds) / 1_000_000)
        func plural(_ n: Int64, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s") ago" }
        if seconds < 60 { return "just now" }
        if seconds < 3600 { return plural(seconds / 60, "minute") }
        if seconds < 86400 { return plural(seconds / 3600, "hour") }
        return "on " + monthDay(time)
    }

    private static func monthDay(_ time: UTCTime) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let iso = time.iso8601
        let month = Int(iso.dropFirst(5).prefix(2)) ?? 1
        let day = Int(iso.dropFirst(8).prefix(2)) ?? 1
        return "\(months[month - 1]) \(day)"
    }
}
