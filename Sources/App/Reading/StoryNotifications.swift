import HatkClient
import Lexicon
import Readers

/// The part of an upstream's notifications grain-stories shows: favourites and comments on the person's stories.
/// Grain's hatk lists every reason (gallery favourites, follows, replies, mentions) and counts them all in
/// `unseenCount`, so the activity page and the header's count page past the rest, a bounded number of pages.
enum StoryNotifications {
    /// The reasons the activity page lists.
    static let reasons: Set<String> = [NotificationReason.storyFavorite, NotificationReason.storyComment]
    /// The most notifications read for one count or one page of activity: five pages of 100, so a member whose
    /// gallery drew a crowd still sees the story items behind it, and a runaway list costs a bounded few reads.
    static let maxPages = 5
    static let pageLimit = 100

    /// One page of story notifications, newest first, each with whether it came in since the person last looked.
    struct Page {
        var items: [(item: NotificationItem, unseen: Bool)]
        /// Where the next page starts; nil at the end.
        var cursor: String?
    }

    /// About `want` story notifications from `cursor` on, skipping the other reasons. The first page (no cursor)
    /// marks the newest `unseenCount` notifications as unseen, counted among all reasons as the upstream counts them.
    static func page(_ reader: any StoryReading, from start: String?, want: Int) async throws(ReadError) -> Page {
        var page = Page(items: [], cursor: start)
        var unseen = 0
        var index = 0
        for read in 0..<maxPages {
            let output = try await reader.notifications(limit: min(pageLimit, max(want, 1)), cursor: page.cursor, countOnly: false)
            if read == 0, start == nil { unseen = output.unseenCount ?? 0 }
            for item in output.notifications {
                if reasons.contains(item.reason) { page.items.append((item, index < unseen)) }
                index += 1
            }
            page.cursor = output.cursor
            guard page.items.count < want, page.cursor != nil, !output.notifications.isEmpty else { break }
        }
        return page
    }

    /// How many of the notifications the person has not looked at are story favourites or comments: the upstream's
    /// `unseenCount` counts every reason, and the unseen ones are the newest that many. Past ``maxPages`` pages the
    /// count is of those read.
    static func unseenCount(_ reader: any StoryReading) async throws(ReadError) -> Int {
        let unseen = try await reader.notifications(limit: 1, cursor: nil, countOnly: true).unseenCount ?? 0
        guard unseen > 0 else { return 0 }
        var (read, found, cursor) = (0, 0, String?.none)
        for _ in 0..<maxPages {
            let output = try await reader.notifications(limit: min(pageLimit, unseen - read), cursor: cursor, countOnly: false)
            found += output.notifications.prefix(unseen - read).count { reasons.contains($0.reason) }
            read += output.notifications.count
            guard read < unseen, let next = output.cursor, !output.notifications.isEmpty else { break }
            cursor = next
        }
        return found
    }
}
