import ATProto
import FrontState
import HatkClient
import Lexicon
import Readers

/// `/profile/<handle-or-did>`: who someone is, a ringed avatar when they have stories, and their archive.
enum ProfilePage {
    struct ArchiveItem: Encodable, Equatable {
        var href: String
        var thumb: String
        var alt: String
        var expired: Bool
        /// The warning a blurred thumbnail carries.
        var warning: String?
        /// A clip's length on its thumbnail; nil for a photo.
        var clip: ClipBadge?
    }

    /// The visitor's standing with this account: mute, block and report controls.
    struct Relation: Encodable, Equatable {
        var csrf: String
        var muted: Bool
        var blocking: Bool
        var blockedBy: Bool
        var muteAction: String
        var blockAction: String
        var reportHref: String
        var mutedHref: String
    }

    struct Model: Encodable, Equatable {
        var author: AuthorTile
        var description: String?
        /// Set for a signed-in visitor looking at someone else.
        var relation: Relation?
        /// Blocked either way: nothing of theirs is shown.
        var blocked: Bool = false
        var hasStories: Bool
        var storiesHref: String
        var storySummary: String
        var archive: [ArchiveItem]
        var shell: StoryPage.Model
    }

    static func query(
        actor: String, reader: any StoryReading, seen: SeenState = .none, viewer: String? = nil, csrf: String? = nil,
        durationMs: Int = StoryPage.photoDuration * 1000, now: UTCTime, filter: StoryFilter = .anonymous,
        chrome: StoryPage.Chrome = .anonymous
    ) async throws -> Model? {
        guard let profile = try await reader.profile(actor), let did = DID.parse(profile.did) else { return nil }
        let state = profile.viewer ?? ProfileViewerState()
        let blocked = filter.relationships.isBlocked(profile.did) || state.blocking != nil || state.blockedBy == true
        async let activeCall = blocked ? [] : reader.stories(of: did)
        async let archiveCall = blocked ? StoriesOutput(stories: []) : reader.storyArchive(of: did, limit: 30, cursor: nil)
        let (active, archive) = (filter.visible(try await activeCall), filter.visible(try await archiveCall.stories))
        let here = SiteURL.profile(actor: actor).path
        let count = active.count
        var relation: Relation?
        if let csrf, let viewer, viewer != profile.did {
            relation = Relation(
                csrf: csrf, muted: state.muted == true || filter.relationships.muted.contains(profile.did),
                blocking: state.blocking != nil || filter.relationships.blocking[profile.did] != nil,
                blockedBy: state.blockedBy == true || filter.relationships.blockedBy.contains(profile.did),
                muteAction: SiteURL.mute(actor: profile.did).path, blockAction: SiteURL.block(actor: profile.did).path,
                reportHref: SiteURL.report.with([("actor", profile.did)]), mutedHref: SiteURL.muted.path)
        }
        return Model(
            author: AuthorTile(
                profile: profile.profileView, storyCount: count, href: here,
                seen: active.last.map(seen.hasSeen) ?? false, latestAt: active.last?.createdAt),
            description: profile.description, relation: relation, blocked: blocked,
            hasStories: count > 0,
            storiesHref: SiteURL.stories(actor: profile.did).with([("from", here)]),
            storySummary: count == 0 ? "No active stories" : "\(count) active \(count == 1 ? "story" : "stories")",
            archive: archive.map { story in
                let created = UTCTime(iso8601: story.createdAt) ?? now
                let decision = filter.decision(story)
                let warned = decision.warns
                return ArchiveItem(
                    href: SiteURL.story(did: profile.did, rkey: story.rkey).with([("from", here)]),
                    thumb: StoryItem.thumb(story, decision: decision),
                    alt: warned
                        ? "Hidden \(story.mediaNoun.lowercased()) (\(decision.name)), story posted " + RelativeTime.long(created, now: now)
                        : story.alt(or: "Story posted " + RelativeTime.long(created, now: now)),
                    expired: story.expired ?? false, warning: warned ? decision.name : nil, clip: ClipBadge(story))
            },
            shell: StoryPage.shell(durationMs: durationMs, csrf: csrf, signedIn: viewer != nil, chrome: chrome))
    }
}
