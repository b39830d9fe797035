import ATProto
import FrontState
import Lexicon

/// One story as the viewer shows it, in the page and in the JSON the script viewer reads.
struct StoryItem: Encodable, Equatable {
    /// Why a story opens behind a bar: what its labels say, in words.
    struct Warning: Encodable, Equatable {
        /// The label value (`nudity`).
        var label: String
        /// What the bar says (`Nudity`).
        var name: String
        /// True when the warning covers the content, not only the picture.
        var content: Bool
    }

    var uri: String
    var cid: String
    var rkey: String
    /// The author's DID.
    var did: String
    /// The story's own page (Grain's permalink path), carrying where Close leads.
    var href: String
    /// What is shown first: the photo, or for a warned story its blurred stand-in. The photo of a warned story is
    /// only in `reveal`, which nothing fetches before the person asks (no preload, no `src`).
    var image: String
    var width: Int
    var height: Int
    /// Who, when and where, for screen readers and when the image fails.
    var alt: String
    /// The author's description shown under the photo, when they chose so.
    var caption: String?
    var ago: String
    var createdAt: String
    var place: String?
    /// "Story 2 of 4".
    var label: String
    var seen: Bool
    var expired: Bool
    /// Set for the signed-in author's own stories.
    var deleteHref: String?
    /// The author's share links to it (their own stories only; the viewer offers it where `Chrome.canShare`).
    var sharesHref: String?
    /// Set while the story is behind its warning.
    var warning: Warning?
    /// The photo of a warned story, for the script's Show button.
    var reveal: String?
    /// The page again with the photo shown, for the Show link without scripts.
    var revealHref: String?
    /// A label shown beside the story (a badge-level label, or the warning of a story the person chose to see).
    var badge: String?
    /// The visitor's favourite record of this story (`viewer.fav`), to take it back.
    var fav: String?
    var favHref: String
    /// Nil when the view does not say (see ``known``).
    var commentCount: Int?
    /// Whether the view carries the comment count and the visitor's favourite. hatk's `getStory` (an expired story's
    /// permalink) carries neither: such a story shows no count and no heart, rather than 0 and an unpressed heart.
    var known: Bool
    /// "comment" or "comments", after the count, for screen readers.
    var commentNoun: String
    var commentsHref: String
    var commentsData: String
    /// Reporting this story, and its author.
    var reportHref: String
    var reportAuthorHref: String
    /// A memory's "1 year ago", shown beside its time.
    var memory: String?
    /// Set where one list mixes authors (a year of memories): whose story this is.
    var author: AuthorTile?
    /// The clip's MP4, for a story whose media is a video (`image` is then its poster, the first frame); nil for a
    /// photo. A warned clip keeps it here for the script's Show, but no page plays it before Show.
    var video: String?
    /// How long the clip plays, as the server measured it when it stored it; nil for a photo.
    var durationMs: Int?
    /// "0:12" and "Video, 12 seconds", for a clip only.
    var clip: ClipBadge?

    init(
        _ story: StoryView, index: Int, count: Int, href: String, seen: Bool, mine: Bool, now: UTCTime,
        decision: LabelDecision = .none, revealed: Bool = false
    ) {
        let created = UTCTime(iso8601: story.createdAt) ?? now
        let place = story.locationDisplay ?? LocationDisplay.format(location: story.location, address: story.address)
        var alt = "\(story.mediaNoun) by \(story.creator.name), \(RelativeTime.long(created, now: now))"
        if let place { alt += ", \(place)" }
        alt = story.alt(or: alt)
        let did = story.creator.did
        let rkey = story.rkey
        uri = story.uri
        cid = story.cid
        self.rkey = rkey
        self.did = did
        self.href = href
        image = story.fullsize
        width = story.aspectRatio.width
        height = story.aspectRatio.height
        self.alt = alt
        caption = story.showsCaption == true ? story.photoDescription : nil
        ago = RelativeTime.short(created, now: now)
        createdAt = story.createdAt
        self.place = place
        label = "Story \(index + 1) of \(count)"
        self.seen = seen
        expired = StoryRecord.isExpired(createdAt: created, now: now)
        deleteHref = mine ? SiteURL.deleteStory(did: did, rkey: rkey).path : nil
        sharesHref = mine ? SiteURL.storyShares(did: did, rkey: rkey).path : nil
        switch decision.action {
        case .warnMedia, .warnContent:
            if revealed {
                badge = decision.name
            } else {
                warning = Warning(label: decision.label, name: decision.name, content: decision.action == .warnContent)
                reveal = story.fullsize
                image = SiteURL.storyBlurred(did: did, rkey: rkey).path
                // self.alt: the local `alt` was already stored, and a warned photo's alt must not say what it shows.
                self.alt =
                    "Hidden \(story.mediaNoun.lowercased()) (\(decision.name)), by \(story.creator.name), \(RelativeTime.long(created, now: now))"
                caption = nil
                revealHref = Self.adding(("show", "1"), to: href.isEmpty ? SiteURL.story(did: did, rkey: rkey).path : href)
            }
        case .badge: badge = decision.name
        case .none, .hide: break
        }
        fav = story.viewer?.fav
        favHref = SiteURL.favorite(did: did, rkey: rkey).path
        commentCount = story.commentCount
        known = story.commentCount != nil
        commentNoun = Plural.noun(story.commentCount ?? 0, "comment")
        commentsHref = SiteURL.comments(did: did, rkey: rkey).path
        commentsData = SiteURL.commentsData(did: did, rkey: rkey).path
        reportHref = SiteURL.report.with([("story", story.uri)])
        reportAuthorHref = SiteURL.report.with([("actor", did)])
        video = story.video?.url
        durationMs = story.video?.durationMs
        clip = ClipBadge(story)
    }

    /// The thumbnail a grid shows for this story: its blurred stand-in while it is behind a warning.
    static func thumb(_ story: StoryView, decision: LabelDecision) -> String {
        switch decision.action {
        case .warnMedia, .warnContent: SiteURL.storyBlurred(did: story.creator.did, rkey: story.rkey).path
        default: story.thumb
        }
    }

    /// `link` with one more query item.
    static func adding(_ item: (String, String), to link: String) -> String {
        link + (link.contains("?") ? "&" : "?") + item.0 + "=" + SiteURL.queryComponent(item.1)
    }
}

extension StoryItem {
    /// Placeholder values for the viewer shell that strip and profile pages carry for the script to fill.
    static let blank = StoryItem(
        StoryView(
            uri: "", cid: "", creator: ProfileView(cid: "", did: "", handle: ""), thumb: "", fullsize: "",
            aspectRatio: AspectRatio(width: 1, height: 1), createdAt: ""),
        index: 0, count: 1, href: "", seen: false, mine: false, now: UTCTime(microseconds: 0))
}

/// `/api/stories/<actor>`: what the script viewer needs to show one author.
struct AuthorStories: Encodable, Equatable {
    var author: AuthorTile
    var items: [StoryItem]
    /// Where reopening starts: the first story not yet seen.
    var start: Int

    /// The author's visible stories as the viewer shows them; nil when none may be shown.
    static func build(
        _ stories: [StoryView], seen: SeenState, viewer: String?, from: String?, now: UTCTime, filter: StoryFilter = .anonymous
    ) -> AuthorStories? {
        let stories = filter.visible(stories)
        guard let first = stories.first else { return nil }
        let carry = SiteURL.localPath(from)
        let items = stories.enumerated().map { i, story in
            StoryItem(
                story, index: i, count: stories.count,
                href: SiteURL.story(did: story.creator.did, rkey: story.rkey).with([("from", carry)]),
                seen: seen.hasSeen(story), mine: viewer == story.creator.did, now: now, decision: filter.decision(story))
        }
        let profile = SiteURL.profile(actor: first.creator.handle).path
        return AuthorStories(
            author: AuthorTile(profile: first.creator, storyCount: stories.count, href: profile), items: items,
            start: seen.startIndex(in: stories))
    }
}
