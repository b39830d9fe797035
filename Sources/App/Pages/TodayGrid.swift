import ATProto
import FrontState
import HatkClient
import Lexicon

/// The home page's "Today": every story of the visitor's walk as a thumbnail, newest first, each a link to its
/// permalink (the viewer opens at that story, with or without scripts).
enum TodayGrid {
    struct Tile: Encodable, Equatable {
        var uri: String
        var href: String
        var thumb: String
        var alt: String
        var did: String
        var name: String
        var place: String?
        var ago: String
        var createdAt: String
        var seen: Bool
        /// Shows the "New" badge: someone else's story the visitor has not seen (never their own).
        var isNew: Bool
        /// The warning a blurred thumbnail carries.
        var warning: String?
        /// Tiles past the first screen load their thumbnails lazily.
        var lazy: Bool
        /// A clip's length on its thumbnail ("▶ 0:12"); nil for a photo.
        var clip: ClipBadge?
    }

    /// Thumbnails a wide screen shows before scrolling.
    static let firstScreen = 12

    /// - Parameter stories: each author's stories as `getStories` answers them, authors already filtered (muted and
    ///   blocked ones out); hidden stories are left out here, warned ones get their blurred stand-in.
    /// - Parameter viewer: the signed-in person's DID, whose own stories are never "New" to them.
    static func tiles(_ stories: [[StoryView]], filter: StoryFilter, seen: SeenState, viewer: String?, now: UTCTime) -> [Tile] {
        let newestFirst = filter.visible(stories.flatMap { $0 }).sorted { $0.createdAt > $1.createdAt }
        return newestFirst.enumerated().map { index, story in
            let created = UTCTime(iso8601: story.createdAt) ?? now
            let decision = filter.decision(story)
            let warned = decision.warns
            let place = story.locationDisplay ?? LocationDisplay.format(location: story.location, address: story.address)
            let who = "\(story.creator.name), \(RelativeTime.long(created, now: now))" + (place.map { ", \($0)" } ?? "")
            return Tile(
                uri: story.uri, href: SiteURL.story(did: story.creator.did, rkey: story.rkey).path,
                thumb: StoryItem.thumb(story, decision: decision),
                alt: warned
                    ? "Hidden \(story.mediaNoun.lowercased()) (\(decision.name)) by " + who : story.alt(or: "\(story.mediaNoun) by " + who),
                did: story.creator.did,
                name: story.creator.name, place: place, ago: RelativeTime.short(created, now: now), createdAt: story.createdAt,
                seen: seen.hasSeen(story), isNew: !seen.hasSeen(story) && story.creator.did != viewer, warning: warned ? decision.name : nil,
                lazy: index >= firstScreen, clip: ClipBadge(story))
        }
    }
}
