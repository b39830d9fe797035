import ATProto
import Foundation

/// "12m", "3h", then a date such as "Mar 15" (with its year when it is not this year's: "Dec 5, 2025"), the way
/// Grain labels story times.
enum RelativeTime {
    static func short(_ time: UTCTime, now: UTCTime) -> String {
        let seconds = max(0, (now.microseconds - time.microseconds) / 1_000_000)
        if seconds < 60 { return "now" }
        if seconds < 3600 { return "\(seconds / 60)m" }
        if seconds < 86400 { return "\(seconds / 3600)h" }
        return date(time, now: now)
    }

    /// Spelled out for alt text and screen readers: "3 hours ago", "on Mar 15".
    static func long(_ time: UTCTime, now: UTCTime) -> String {
        let seconds = max(0, (now.microseconds - time.microseconds) / 1_000_000)
        if seconds < 60 { return "just now" }
        if seconds < 3600 { return Plural.count(seconds / 60, "minute") + " ago" }
        if seconds < 86400 { return Plural.count(seconds / 3600, "hour") + " ago" }
        return "on " + date(time, now: now)
    }

    /// "Mar 15" this year, "Dec 5, 2025" in another (a year-old story must not pass for this year's).
    static func date(_ time: UTCTime, now: UTCTime) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let iso = time.iso8601
        let month = min(max(Int(iso.dropFirst(5).prefix(2)) ?? 1, 1), 12)
        let day = Int(iso.dropFirst(8).prefix(2)) ?? 1
        let year = iso.prefix(4)
        return "\(months[month - 1]) \(day)" + (year == now.iso8601.prefix(4) ? "" : ", \(year)")
    }
}
