public import Foundation

/// An instant in UTC with microsecond precision, written the way atproto records expect:
/// `YYYY-MM-DDTHH:mm:ss.sssZ` (JavaScript's `toISOString`), so that string order is time order.
public struct UTCTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }
    public init(milliseconds: Int64) { self.microseconds = milliseconds * 1000 }
    public init(_ date: Date) { microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }

    public static var now: UTCTime { UTCTime(Date()) }

    public var date: Date { Date(timeIntervalSince1970: Double(microseconds) / 1_000_000) }

    public func adding(seconds: Double) -> UTCTime {
        UTCTime(microseconds: microseconds + Int64(seconds * 1_000_000))
    }

    public static func < (a: UTCTime, b: UTCTime) -> Bool { a.microseconds < b.microseconds }

    /// Whole seconds since 1970, rounded down (towards the past, also before 1970): the unit of JWT times,
    /// cookies and stored expiries. The one conversion every module uses.
    public var unixSeconds: Int64 {
        microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
    }

    /// The instant `unixSeconds` seconds after 1970.
    public init(unixSeconds: Int64) { self.init(microseconds: unixSeconds * 1_000_000) }

    /// The canonical form with milliseconds and `Z`.
    public var description: String { iso8601 }

    public var iso8601: String {
        let millis = microseconds >= 0 ? microseconds / 1000 : (microseconds - 999) / 1000
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let msOfDay = millis - days * 86_400_000
        let (y, m, d) = UTCTime.civil(fromDays: days)
        let h = msOfDay / 3_600_000
        let mi = msOfDay / 60_000 % 60
        let s = msOfDay / 1000 % 60
        let ms = msOfDay % 1000
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(h, 2) + ":" + pad(mi, 2) + ":" + pad(s, 2)
            + "." + pad(ms, 3) + "Z"
    }

    /// Parses RFC 3339 / ISO 8601 datetimes as atproto allows them: a `T` separator, optional
    /// fractional seconds, and `Z` or a `±HH:MM` offset. Anything else is nil.
    public init?(iso8601 s: String) {
        let b = Array(s.utf8)
        guard b.count >= 20, b.count <= 64 else { return nil }
        func num(_ from: Int, _ len: Int) -> Int64? {
            guard from + len <= b.count else { return nil }
            var v: Int64 = 0
            for i in from..<(from + len) {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int64(b[i] - 0x30)
            }
            return v
        }
        guard let y = num(0, 4), b[4] == 0x2D, let mo = num(5, 2), b[7] == 0x2D, let d = num(8, 2),
            b[10] == 0x54 || b[10] == 0x74, let h = num(11, 2), b[13] == 0x3A, let mi = num(14, 2), b[16] == 0x3A,
            let sec = num(17, 2)
        else { return nil }
        guard (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, sec < 61 else { return nil }
        var i = 19
        var micros: Int64 = 0
        if i < b.count, b[i] == 0x2E {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                if digits < 6 { micros = micros * 10 + Int64(b[i] - 0x30) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if digits < 6 { for _ in digits..<6 { micros *= 10 } }
        }
        var offsetSeconds: Int64 = 0
        guard i < b.count else { return nil }
        if b[i] == 0x5A || b[i] == 0x7A {
            i += 1
        } else if b[i] == 0x2B || b[i] == 0x2D {
            guard let oh = num(i + 1, 2), i + 3 < b.count, b[i + 3] == 0x3A, let om = num(i + 4, 2) else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (b[i] == 0x2D ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = UTCTime.days(fromCivil: y, mo, d)
        let seconds = days * 86400 + h * 3600 + mi * 60 + sec - offsetSeconds
        microseconds = seconds * 1_000_000 + micros
    }

    // Days since 1970-01-01 for a proleptic Gregorian date, and back (era-based civil calendar arithmetic).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

private func pad(_ value: Int64, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
