import ATProto
import FrontState
import HatkClient
import Lexicon

/// "On this day": the home page's section of memories by year, and the viewer over one year of them.
enum MemoriesPage {
    struct Tile: Encodable, Equatable {
        var uri: String
        var href: String
        var thumb: String
        var alt: String
        /// Who posted it and in which year, under the thumbnail.
        var name: String
        var year: String
        /// The warning a blurred thumbnail carries.
        var warning: String?
        /// A clip's length on its thumbnail; nil for a photo.
        var clip: ClipBadge?
    }

    struct Section: Encodable, Equatable {
        var label: String
        var tiles: [Tile]
    }

    /// What the home page shows; nil (no section) for anonymous visitors or when there is nothing to remember.
    struct Model: Encodable, Equatable {
        var sections: [Section]
        /// Set when the stories are from a date a few days before today's (none on today's date itself).
        var note: String?
    }

    static func model(_ groups: [Memories.Group], filter: StoryFilter, now: UTCTime) -> Model? {
        guard let first = groups.first?.stories.first else { return nil }
        let today = String(now.iso8601.prefix(10)).dropFirst(5)
        let day = first.createdAt.dropFirst(5).prefix(5)
        return Model(
            sections: groups.map { group in
                Section(
                    label: group.label,
                    tiles: group.stories.enumerated().map { i, story in
                        let decision = filter.decision(story)
                        let warned = decision.warns
                        let when = group.label
                        return Tile(
                            uri: story.uri, href: SiteURL.memories(years: group.years).with([("i", String(i))]),
                            thumb: StoryItem.thumb(story, decision: decision),
                            alt: warned
                                ? "Hidden \(story.mediaNoun.lowercased()) (\(decision.name)) by \(story.creator.name), \(when)"
                                : story.alt(or: "\(story.mediaNoun) by \(story.creator.name), \(when)"),
                            name: story.creator.name, year: String(story.createdAt.prefix(4)), warning: warned ? decision.name : nil,
                            clip: ClipBadge(story))
                    })
            },
            note: day == today ? nil : "Nothing from this date in earlier years: these are from a few days before it.")
    }

    /// The viewer over one year's memories: its stories only (the end closes, it never walks on to another year or
    /// author), each labelled with how long ago ("1 year ago" where a story says "3h"), each with its own author
    /// (`item.author`, which the script prefers to the list's).
    static func viewer(
        _ group: Memories.Group, index: Int, seen: SeenState, viewer: String?, durationMs: Int, now: UTCTime,
        filter: StoryFilter, revealed: Bool
    ) -> StoryPage.Model {
        let index = min(max(index, 0), group.stories.count - 1)
        var model = StoryPage.model(
            group.stories, index: index, authors: [], close: SiteURL.home.path, seen: seen, viewer: viewer, durationMs: durationMs,
            now: now, filter: filter, revealed: revealed,
            link: { i, _ in SiteURL.memories(years: group.years).with([("i", String(i))]) })
        for i in model.data.items.indices {
            let creator = group.stories[i].creator
            model.data.items[i].memory = group.label
            // Where the viewer says how long ago, a memory says it in years.
            model.data.items[i].ago = group.label
            model.data.items[i].author = AuthorTile(profile: creator, storyCount: 0, href: SiteURL.profile(actor: creator.handle).path)
            model.data.items[i].label = "Memory \(i + 1) of \(group.stories.count)"
        }
        model.item = model.data.items[index]
        model.position = model.item.label
        for i in model.segments.indices { model.segments[i].label = model.data.items[i].label }
        return model
    }
}
