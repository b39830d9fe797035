import ATProto
import HatkClient
import Lexicon

/// `/profile/<handle-or-did>`: who someone is, a ringed avatar when they have stories, and their archive.
enum ProfilePage {
    struct ArchiveItem: Encodable, Equatable {
        var href: String
        var thumb: String
        var alt: String
        var expired: Bool
    }

    struct Model: Encodable, Equatable {
        var author: AuthorTile
        var description: String?
        var hasStories: Bool
        var storiesHref: String
        var storySummary: String
        var archive: [ArchiveItem]
        var shell: StoryPage.Model
    }

    static func query(
        actor: String, reader: any StoryReading, seen: SeenState = .none, viewer: String? = nil, csrf: String? = nil,
        durationMs: Int = StoryPage.photoDuration * 1000, now: UTCTime
    ) async throws -> Model? {
        guard let profile = try await reader.profile(actor), let did = DID.parse(profile.did) else { return nil }
        async let activeCall = reader.stories(of: did)
        async let archiveCall = reader.storyArchive(of: did, limit: 30, cursor: nil)
        let (active, archive) = (try await activeCall, try await archiveCall)
        let here = SiteURL.profile(actor: actor).path
        let count = active.count
        return Model(
            author: AuthorTile(
                profile: profile.profileView, storyCount: count, href: here,
                seen: active.last.map(seen.hasSeen) ?? false, latestAt: active.last?.createdAt),
            description: profile.description,
            hasStories: count > 0,
            storiesHref: SiteURL.stories(actor: profile.did).with([("from", here)]),
            storySummary: count == 0 ? "No active stories" : "\(count) active \(count == 1 ? "story" : "stories")",
            archive: archive.stories.map { story in
                let created = UTCTime(iso8601: story.createdAt) ?? now
                return ArchiveItem(
                    href: SiteURL.story(did: profile.did, rkey: story.rkey).with([("from", here)]), thumb: story.thumb,
                    alt: "Story from \(RelativeTime.long(created, now: now))", expired: story.expired ?? false)
            },
            shell: StoryPage.shell(durationMs: durationMs, csrf: csrf, signedIn: viewer != nil))
    }
}
