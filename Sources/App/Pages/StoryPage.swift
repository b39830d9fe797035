import ATProto
import FrontState
import HatkClient
import Lexicon
import Readers

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

    /// What the viewer offers around the story, the same for every story of a page: who may favourite, comment and
    /// report, and the reasons a report can give (the upstream's label identifiers).
    struct Chrome: Encodable, Equatable {
        var signedIn: Bool
        /// The visitor's CSRF token, for the viewer's forms; set for signed-in visitors.
        var csrf: String?
        var loginHref: String
        var reasons: [ReportReason]
        /// Whether the visitor may make share links to their own stories (a household's posting members).
        var canShare = false
        /// Where mutes and blocks are listed and undone, linked from the notice after one.
        var mutedHref = SiteURL.muted.path

        static let anonymous = Chrome(signedIn: false, csrf: nil, loginHref: SiteURL.login.path, reasons: [])
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
        /// Images to fetch ahead so the next story paints at once (stand-ins for warned stories, never their photos).
        var preload: [String]
        var durationMs: Int
        /// A word after posting, e.g. that the Bluesky cross-post failed while the story went up.
        var notice: String?
        /// The visitor's CSRF token, for the delete dialog and seen marks; set for signed-in visitors.
        var csrf: String?
        /// The delete dialog is in the page only where the visitor may delete what it shows: their own story, or
        /// the script viewer's shell of a signed-in visitor (it may open their own stories).
        var deleteDialog = false
        var chrome: Chrome = .anonymous
        var data: ViewerData
    }

    /// The empty viewer strip and profile pages carry in a `<template>`: the script fills it from
    /// `/api/stories/<actor>`, so both ways of viewing share one markup.
    static func shell(durationMs: Int, csrf: String?, signedIn: Bool, chrome: Chrome = .anonymous) -> Model {
        let author = AuthorTile(profile: ProfileView(cid: "", did: "", handle: ""), storyCount: 0, href: "")
        return Model(
            author: author, item: .blank, position: "", segments: [], previousHref: "", nextHref: "", closeHref: "",
            previousAuthorHref: nil, nextAuthorHref: nil, preload: [], durationMs: durationMs, notice: nil, csrf: csrf,
            deleteDialog: csrf != nil, chrome: chrome,
            data: ViewerData(
                author: author, items: [], index: 0, authors: [], closeHref: "/", durationMs: durationMs,
                signedIn: signedIn))
    }

    /// Builds the page from the visitor's walk (`authors`, already filtered) and the author's stories; nil when the
    /// story does not exist or may not be shown.
    /// - Parameter revealed: the visitor asked to see the story behind its warning (the Show link).
    static func query(
        did: DID, rkey: String, from: String?, authors: [StoryAuthor], stories: [StoryView], reader: any StoryReading,
        seen: SeenState, viewer: String?, durationMs: Int = photoDuration * 1000, now: UTCTime, filter: StoryFilter = .anonymous,
        revealed: Bool = false
    ) async throws -> Model? {
        let close = SiteURL.localPath(from) ?? SiteURL.home.path
        let visible = filter.visible(stories)
        guard let index = visible.firstIndex(where: { $0.rkey == rkey }) else {
            // Not among the active stories: an expired story opened by its permalink (or one that may not be shown).
            guard !stories.contains(where: { $0.rkey == rkey }) else { return nil }
            let uri = ATURI(authority: did.rawValue, collection: StoryRecord.collection, rkey: rkey)
            guard let story = try await reader.story(uri), !filter.visible([story]).isEmpty else { return nil }
            return model(
                [story], index: 0, authors: [], close: close, seen: seen, viewer: viewer, durationMs: durationMs, now: now,
                filter: filter, revealed: revealed)
        }
        return model(
            visible, index: index, authors: seen.ordered(authors).map(\.profile.did), close: close, seen: seen, viewer: viewer,
            durationMs: durationMs, now: now, filter: filter, revealed: revealed)
    }

    /// - Parameter stories: visible stories only.
    /// - Parameter link: each story's address in this list (by default its permalink, carrying where Close leads).
    static func model(
        _ stories: [StoryView], index: Int, authors: [String], close: String, seen: SeenState, viewer: String?,
        durationMs: Int, now: UTCTime, filter: StoryFilter = .anonymous, revealed: Bool = false,
        link: ((Int, StoryView) -> String)? = nil
    ) -> Model {
        let from = close == SiteURL.home.path ? nil : close
        let carry = SiteURL.localPath(from)
        let items = stories.enumerated().map { i, story in
            StoryItem(
                story, index: i, count: stories.count,
                href: link?(i, story) ?? SiteURL.story(did: story.creator.did, rkey: story.rkey).with([("from", carry)]),
                seen: seen.hasSeen(story), mine: viewer == story.creator.did, now: now, decision: filter.decision(story),
                revealed: revealed && i == index)
        }
        let creator = stories[index].creator
        let author = AuthorTile(profile: creator, storyCount: stories.count, href: SiteURL.profile(actor: creator.handle).path)
        let authorIndex = authors.firstIndex(of: creator.did)
        let previousAuthor = authorIndex.flatMap { $0 > 0 ? authors[$0 - 1] : nil }
        let nextAuthor = authorIndex.flatMap { $0 + 1 < authors.count ? authors[$0 + 1] : nil }
        let previousAuthorHref = previousAuthor.map { SiteURL.stories(actor: $0).with([("at", "last"), ("from", from)]) }
        let nextAuthorHref = nextAuthor.map { SiteURL.stories(actor: $0).with([("from", from)]) }
        let previous = index > 0 ? items[index - 1].href : (previousAuthorHref ?? close)
        let next = index + 1 < items.count ? items[index + 1].href : (nextAuthorHref ?? close)
        var preload = items.dropFirst(index + 1).prefix(3).map(\.image)
        if index + 1 >= items.count - 1, nextAuthor != nil { preload = Array(preload.prefix(2)) }
        return Model(
            author: author, item: items[index], position: items[index].label,
            segments: items.enumerated().map { i, item in
                Segment(
                    href: item.href, state: i < index ? "done" : (i == index ? "active" : "todo"), active: i == index,
                    label: item.label)
            },
            previousHref: previous, nextHref: next, closeHref: close,
            previousAuthorHref: previousAuthorHref, nextAuthorHref: nextAuthorHref,
            preload: preload, durationMs: durationMs, notice: nil, csrf: nil,
            data: ViewerData(
                author: author, items: items, index: index, authors: authors, closeHref: close,
                durationMs: durationMs, signedIn: viewer != nil))
    }

    /// The permalink's Open Graph and Twitter card tags, on the origin the visitor used (absolute, as crawlers need).
    static func linkPreview(_ model: Model, origin: String) -> [PageRenderer.Meta] {
        let item = model.item
        let title = "Story by @\(model.author.handle)"
        let kind = item.video == nil ? "Photo" : "Video"
        let description = item.warning.map { "\(kind) story behind a content warning (\($0.name))" } ?? "\(kind) story on grain stories"
        let page = origin + SiteURL.story(did: item.did, rkey: item.rkey).path
        let image = origin + SiteURL.storyPreview(did: item.did, rkey: item.rkey).path
        return [
            .init(property: "og:type", content: "article"), .init(property: "og:title", content: title),
            .init(property: "og:description", content: description), .init(property: "og:url", content: page),
            .init(property: "og:image", content: image), .init(property: "og:image:width", content: "1200"),
            .init(property: "og:image:height", content: "630"),
            .init(property: "og:image:alt", content: item.warning == nil ? item.alt : "Blurred photo behind a content warning"),
            .init(name: "twitter:card", content: "summary_large_image"), .init(name: "twitter:title", content: title),
            .init(name: "twitter:description", content: description), .init(name: "twitter:image", content: image),
        ]
    }
}

extension PageRenderer.Meta {
    init(property: String, content: String) { self.init(property: property, name: nil, content: content) }
    init(name: String, content: String) { self.init(property: nil, name: name, content: content) }
}
