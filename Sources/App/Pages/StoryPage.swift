import ATProto
import HatkClient
import Lexicon

/// `/profile/<did>/story/<rkey>`: one story, with links that walk the visitor's strip order, and the data
/// the script viewer needs to take over without another request.
public enum StoryPage {
    /// Seconds each photo shows before the viewer moves on (Grain: 5 s).
    public static let photoDuration = 5

    struct Segment: Encodable, Equatable {
        var href: String
        /// "done", "active" or "todo": past stories are full, later ones empty.
        var state: String
        var active: Bool
        var label: String
    }

    /// What the script viewer reads from the page's JSON block.
    struct ViewerData: Encodable, Equatable {
        var author: AuthorTile
        var items: [StoryItem]
        var index: Int
        /// Author DIDs in the visitor's strip order: swipes and the end of an author walk it.
        var authors: [String]
        var closeHref: String
        var durationMs: Int
        var signedIn: Bool
    }

    struct Model: Encodable, Equatable {
        var author: AuthorTile
        var item: StoryItem
        var position: String
        var segments: [Segment]
        var previousHref: String
        var nextHref: String
        var closeHref: String
        var previousAuthorHref: String?
        var nextAuthorHref: String?
        /// Images to fetch ahead so the next story paints at once.
        var preload: [String]
        var durationMs: Int
        /// A word after posting, e.g. that the Bluesky cross-post failed while the story went up.
        var notice: String?
        /// The visitor's CSRF token, for the delete dialog and seen marks; set for signed-in visitors.
        var csrf: String?
        /// The delete dialog is in the page only where the visitor may delete what it shows: their own story, or
        /// the script viewer's shell of a signed-in visitor (it may open their own stories).
        var deleteDialog = false
        var data: ViewerData
    }

    /// The empty viewer strip and profile pages carry in a `<template>`: the script fills it from
    /// `/api/stories/<actor>`, so both ways of viewing share one markup.
    static func shell(durationMs: Int, csrf: String?, signedIn: Bool) -> Model {
        let author = AuthorTile(profile: ProfileView(cid: "", did: "", handle: ""), storyCount: 0, href: "")
        return Model(
            author: author, item: .blank, position: "", segments: [], previousHref: "", nextHref: "", closeHref: "",
            previousAuthorHref: nil, nextAuthorHref: nil, preload: [], durationMs: durationMs, notice: nil, csrf: csrf,
            deleteDialog: csrf != nil,
            data: ViewerData(
                author: author, items: [], index: 0, authors: [], closeHref: "/", durationMs: durationMs,
                signedIn: signedIn))
    }

    /// Builds the page; nil when the story does not exist at all.
    static func query(
        did: DID, rkey: String, from: String?, reader: any StoryReading, seen: SeenState, viewer: String?,
        durationMs: Int = photoDuration * 1000, now: UTCTime
    ) async throws -> Model? {
        async let authorsCall = reader.storyAuthors()
        async let storiesCall = reader.stories(of: did)
        let (authors, stories) = (seen.ordered(try await authorsCall), try await storiesCall)
        let close = SiteURL.localPath(from) ?? SiteURL.home.path

        guard let index = stories.firstIndex(where: { $0.rkey == rkey }) else {
            // Not among the active stories: an expired or hidden story opened by its permalink.
            let uri = ATURI(authority: did.rawValue, collection: StoryRecord.collection, rkey: rkey)
            guard let story = try await reader.story(uri) else { return nil }
            return model(
                [story], index: 0, authors: [], close: close, seen: seen, viewer: viewer, durationMs: durationMs, now: now)
        }
        return model(
            stories, index: index, authors: authors.map(\.profile.did), close: close, seen: seen, viewer: viewer,
            durationMs: durationMs, now: now)
    }

    static func model(
        _ stories: [StoryView], index: Int, authors: [String], close: String, seen: SeenState, viewer: String?,
        durationMs: Int, now: UTCTime
    ) -> Model {
        let from = close == SiteURL.home.path ? nil : close
        let data = AuthorStories.build(stories, seen: seen, viewer: viewer, from: from, now: now)!
        let creator = stories[index].creator
        let authorIndex = authors.firstIndex(of: creator.did)
        let previousAuthor = authorIndex.flatMap { $0 > 0 ? authors[$0 - 1] : nil }
        let nextAuthor = authorIndex.flatMap { $0 + 1 < authors.count ? authors[$0 + 1] : nil }
        let previousAuthorHref = previousAuthor.map { SiteURL.stories(actor: $0).with([("at", "last"), ("from", from)]) }
        let nextAuthorHref = nextAuthor.map { SiteURL.stories(actor: $0).with([("from", from)]) }
        let items = data.items
        let previous = index > 0 ? items[index - 1].href : (previousAuthorHref ?? close)
        let next = index + 1 < items.count ? items[index + 1].href : (nextAuthorHref ?? close)
        var preload = items.dropFirst(index + 1).prefix(3).map(\.image)
        if index + 1 >= items.count - 1, nextAuthor != nil { preload = Array(preload.prefix(2)) }
        return Model(
            author: data.author, item: items[index], position: items[index].label,
            segments: items.enumerated().map { i, item in
                Segment(
                    href: item.href, state: i < index ? "done" : (i == index ? "active" : "todo"), active: i == index,
                    label: item.label)
            },
            previousHref: previous, nextHref: next, closeHref: close,
            previousAuthorHref: previousAuthorHref, nextAuthorHref: nextAuthorHref,
            preload: preload, durationMs: durationMs, notice: nil, csrf: nil,
            data: ViewerData(
                author: data.author, items: items, index: index, authors: authors, closeHref: close,
                durationMs: durationMs, signedIn: viewer != nil))
    }
}
