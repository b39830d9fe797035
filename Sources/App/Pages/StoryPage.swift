import ATProto
import HatkClient
import Lexicon

/// `/profile/<did>/story/<rkey>`: one story of the viewer, with links that walk the strip's order.
enum StoryPage {
    /// Seconds each photo shows before the viewer moves on (Grain: 5 s).
    static let photoDuration = 5

    struct Segment: Encodable, Equatable {
        var href: String
        /// "done", "active" or "todo": past stories are full, later ones empty.
        var state: String
        var active: Bool
        var label: String
    }

    struct Model: Encodable, Equatable {
        var author: AuthorTile
        var profileHref: String
        var imageURL: String
        var width: Int
        var height: Int
        var alt: String
        var ago: String
        var createdAt: String
        var place: String?
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
        var expired: Bool
        /// Set when the signed-in person is the author: the story's delete confirm page.
        var deleteHref: String?
        /// A word after posting, e.g. that the Bluesky cross-post failed while the story went up.
        var notice: String?
    }

    /// Builds the page; nil when the story does not exist at all.
    static func query(
        did: DID, rkey: String, from: String?, reader: any StoryReading, now: UTCTime
    ) async throws -> Model? {
        async let authorsCall = reader.storyAuthors()
        async let storiesCall = reader.stories(of: did)
        let (authors, stories) = (try await authorsCall, try await storiesCall)
        let close = SiteURL.localPath(from) ?? SiteURL.home.path
        let carry: (SiteURL) -> String = { $0.with([("from", SiteURL.localPath(from))]) }

        guard let index = stories.firstIndex(where: { $0.rkey == rkey }) else {
            // Not among the active stories: an expired or hidden story opened by its permalink.
            let uri = ATURI(authority: did.rawValue, collection: StoryRecord.collection, rkey: rkey)
            guard let story = try await reader.story(uri) else { return nil }
            return model(story, index: 0, of: [story], close: close, carry: carry, previousAuthor: nil, nextAuthor: nil, now: now)
        }

        let authorIndex = authors.firstIndex { $0.profile.did == did.rawValue }
        let previousAuthor = authorIndex.flatMap { $0 > 0 ? authors[$0 - 1].profile.did : nil }
        let nextAuthor = authorIndex.flatMap { $0 + 1 < authors.count ? authors[$0 + 1].profile.did : nil }
        return model(
            stories[index], index: index, of: stories, close: close, carry: carry, previousAuthor: previousAuthor,
            nextAuthor: nextAuthor, now: now)
    }

    static func model(
        _ story: StoryView, index: Int, of stories: [StoryView], close: String, carry: @escaping (SiteURL) -> String,
        previousAuthor: String?, nextAuthor: String?, now: UTCTime
    ) -> Model {
        let creator = story.creator
        let link = { (s: StoryView) in carry(.story(did: s.creator.did, rkey: s.rkey)) }
        let previousAuthorHref = previousAuthor.map { SiteURL.stories(actor: $0).with([("at", "last"), ("from", SiteURL.localPath(close))]) }
        let nextAuthorHref = nextAuthor.map { carry(.stories(actor: $0)) }
        let previous = index > 0 ? link(stories[index - 1]) : (previousAuthorHref ?? close)
        let next = index + 1 < stories.count ? link(stories[index + 1]) : (nextAuthorHref ?? close)
        let created = UTCTime(iso8601: story.createdAt) ?? now
        let place = story.locationDisplay ?? LocationDisplay.format(location: story.location, address: story.address)
        var alt = "Photo by \(creator.name), \(RelativeTime.long(created, now: now))"
        if let place { alt += ", \(place)" }
        var preload = stories.dropFirst(index + 1).prefix(3).map(\.fullsize)
        if index + 1 >= stories.count - 1, nextAuthor != nil { preload = Array(preload.prefix(2)) }
        return Model(
            author: AuthorTile(profile: creator, storyCount: stories.count, href: SiteURL.profile(actor: creator.handle).path),
            profileHref: SiteURL.profile(actor: creator.handle).path,
            imageURL: story.fullsize, width: story.aspectRatio.width, height: story.aspectRatio.height, alt: alt,
            ago: RelativeTime.short(created, now: now), createdAt: story.createdAt, place: place,
            position: "Story \(index + 1) of \(stories.count)",
            segments: stories.enumerated().map { i, s in
                Segment(
                    href: link(s), state: i < index ? "done" : (i == index ? "active" : "todo"), active: i == index,
                    label: "Story \(i + 1) of \(stories.count)")
            },
            previousHref: previous, nextHref: next, closeHref: close,
            previousAuthorHref: previousAuthorHref, nextAuthorHref: nextAuthorHref,
            preload: preload, durationMs: photoDuration * 1000,
            expired: now.microseconds - created.microseconds > 86_400_000_000, deleteHref: nil, notice: nil)
    }
}
