import Foundation

/// Everything a kiosk's address can say (`/kiosk?memories=1&night=22:00-07:00&clock=1…`): read once from the query,
/// written back in one canonical order for the kiosk's own links, its playlist address and its QR code.
struct KioskOptions: Equatable, Sendable {
    /// Handles or DIDs to show; nil shows everyone.
    var authors: String?
    /// Warned stories play too.
    var showWarned = false
    /// Seconds between playlist reads (2 to 3600); nil is the default.
    var refreshSeconds: Int?
    /// A signed-in member's memories play between today's stories.
    var memories = false
    /// The night schedule in minutes after local midnight: from `start` to `end` (across midnight when end < start).
    var night: Night?
    /// A clock (hours and minutes, no date) in a corner.
    var clock = false
    /// The caption with author, place and how long ago; `overlay=0` leaves only the photo.
    var overlay = true
    /// On a landscape screen two portrait photos side by side; `pair=0` shows one at a time.
    var pair = true

    struct Night: Equatable, Sendable {
        var start: Int
        var end: Int

        /// `22:00-07:00`; nil for anything else.
        init?(_ raw: String?) {
            let parts = (raw ?? "").split(separator: "-")
            guard parts.count == 2, let start = Self.minutes(parts[0]), let end = Self.minutes(parts[1]), start != end else {
                return nil
            }
            self.start = start
            self.end = end
        }

        static func minutes(_ text: Substring) -> Int? {
            let hm = text.split(separator: ":")
            guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h),
                (0..<60).contains(m)
            else { return nil }
            return h * 60 + m
        }

        static func text(_ minutes: Int) -> String {
            let h = minutes / 60
            let m = minutes % 60
            return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
        }

        var start24: String { Self.text(start) }
        var end24: String { Self.text(end) }
        var description: String { start24 + "-" + end24 }
    }

    init() {}

    /// From a query: unknown or malformed values fall back to the defaults.
    init(query: (String) -> String?) {
        let names = query("authors")?.trimmingCharacters(in: .whitespaces)
        authors = (names?.isEmpty ?? true) ? nil : names
        showWarned = query("warned") == "show"
        refreshSeconds = Int(query("refresh") ?? "")
        memories = query("memories") == "1"
        night = Night(query("night"))
        // A settings form sends start and end apart.
        if night == nil, let start = query("night_start"), let end = query("night_end"), !start.isEmpty, !end.isEmpty {
            night = Night(start + "-" + end)
        }
        clock = query("clock") == "1"
        overlay = query("overlay") != "0"
        pair = query("pair") != "0"
    }

    /// The options as a kiosk address's query string (without the `?`; empty for the defaults).
    var queryString: String { String(SiteURL.kiosk.with(items).drop { $0 != "?" }.dropFirst()) }

    /// The query items that differ from the defaults, in a fixed order.
    var items: [(String, String?)] {
        [
            ("authors", authors), ("warned", showWarned ? "show" : nil), ("refresh", refreshSeconds.map(String.init)),
            ("memories", memories ? "1" : nil), ("night", night?.description), ("clock", clock ? "1" : nil),
            ("overlay", overlay ? nil : "0"), ("pair", pair ? nil : "0"),
        ]
    }
}
