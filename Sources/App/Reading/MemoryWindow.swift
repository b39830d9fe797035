public import ATProto

/// Which calendar days "On this day" looks at: today's date, then (when earlier years have nothing on it) each of
/// the week's earlier dates, nearest first. Days are UTC dates, the form `createdAt` is stored in.
public struct MemoryWindow: Sendable, Equatable {
    /// Today and the seven dates before it, as `YYYY-MM-DD`, nearest first.
    public let dates: [String]
    /// No candidate is newer than this: the earliest possible memory is a year before the window's oldest date.
    public let cutoff: UTCTime

    public static let fallbackDays = 7

    public init(now: UTCTime) {
        dates = (0...Self.fallbackDays).map { String(now.adding(seconds: -Double($0) * 86_400).iso8601.prefix(10)) }
        cutoff = now.adding(seconds: -Double(Self.fallbackDays + 1) * 86_400)
    }

    /// The dates' `MM-DD`, what the store matches on.
    public var monthDays: [String] { dates.map { String($0.dropFirst(5)) } }
}
