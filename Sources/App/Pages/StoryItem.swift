import ATProto
import Lexicon

/// One story as the viewer shows it, in the page and in the JSON the script viewer reads.
struct StoryItem: Encodable, Equatable {
    var uri: String
    var rkey: String
    /// The story's own page (Grain's permalink path), carrying where Close leads.
    var href: String
    var image: String
    var width: Int
    var height: Int
    /// Who, when and where, for screen readers and when the image fails.
    var alt: String
    var ago: String
    var createdAt: String
    var place: String?
    /// "Story 2 of 4".
    var label: String
    var seen: Bool
    var expired: Bool
    /// Set for the signed-in author's own stories.
    var deleteHref: String?

    init(_ story: StoryView, index: Int, count: Int, href: String, seen: Bool, mine: Bool, now: UTCTime) {
        let created = UTCTime(iso8601: story.createdAt) ?? now
        let place = story.locationDisplay ?? LocationDisplay.format(location: story.location, address: story.address)
        var alt = "Photo by \(story.creator.name), \(RelativeTime.long(created, now: now))"
        if let place { alt += ", \(place)" }
        uri = story.uri
        rkey = story.rkey
        self.href = href
        image = story.fullsize
        width = story.aspectRatio.width
        height = story.aspectRatio.height
        self.alt = alt
        ago = RelativeTime.short(created, now: now)
        createdAt = story.createdAt
        self.place = place
        label = "Story \(index + 1) of \(count)"
        self.seen = seen
        expired = StoryRecord.isExpired(createdAt: created, now: now)
        deleteHref = mine ? SiteURL.deleteStory(did: story.creator.did, rkey: story.rkey).path : nil
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

    static func build(
        _ stories: [StoryView], seen: SeenState, viewer: String?, from: String?, now: UTCTime
    ) -> AuthorStories? {
        guard let first = stories.first else { return nil }
        let carry = SiteURL.localPath(from)
        let items = stories.enumerated().map { i, story in
            StoryItem(
                story, index: i, count: stories.count,
                href: SiteURL.story(did: story.creator.did, rkey: story.rkey).with([("from", carry)]),
                seen: seen.hasSeen(story), mine: viewer == story.creator.did, now: now)
        }
        let profile = SiteURL.profile(actor: first.creator.handle).path
        return AuthorStories(
            author: AuthorTile(profile: first.creator, storyCount: stories.count, href: profile), items: items,
            start: seen.startIndex(in: stories))
    }
}
