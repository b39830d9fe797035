import ATProto
import Foundation
import HatkClient
import Lexicon
import Readers
import Synchronization

@testable import App

/// A story source held in memory: authors and their stories, answering as any viewer, and counting who asked.
/// Social state (comments, notifications, mutes and blocks, label definitions, viewed state) is kept per viewer the
/// way an upstream would answer it, so the front's filtering and feature detection can be checked.
final class FakeStories: StorySource, StoryReading {
    struct Content {
        var authors: [StoryAuthor] = []
        var stories: [String: [StoryView]] = [:]
        /// Expired stories by author DID, oldest first: in the archive and by URI, never in `getStories`.
        var archived: [String: [StoryView]] = [:]
        /// How many `getStoryArchive` pages were asked for.
        var archiveReads = 0
        var profiles: [String: ProfileViewDetailed] = [:]
        /// The viewer DIDs readers were made for, in order.
        var viewers: [String?] = []
        /// Set to make every read fail as an unreachable upstream would.
        var failure: ReadError?
        /// Comments by story URI, oldest first.
        var comments: [String: [CommentView]] = [:]
        /// Notifications by the DID they are for, newest first (distinct `createdAt`s: the cursor is one, as hatk's).
        var notifications: [String: [NotificationItem]] = [:]
        /// How many of each viewer's notifications are unseen; all of them when absent.
        var unseenNotifications: [String: Int] = [:]
        /// How many `getNotifications` calls were answered.
        var notificationReads = 0
        /// Whom each viewer muted or blocks (or is blocked by).
        var relationships: [String: ViewerRelationships] = [:]
        /// `describeLabels`' answer; nil answers like a hatk without the method (not JSON).
        var labels: [LabelDefinition]? = LabelDefinition.grain
        /// How many times label definitions were asked for.
        var labelReads = 0
        /// Answer like an upstream with Grain's viewed state: `unviewedCount` for signed-in readers.
        var viewedState = false
        /// Story URIs each viewer has viewed (upstream viewed state).
        var viewed: [String: Set<String>] = [:]
        /// Methods answered like a hatk that lacks them (HTML instead of JSON).
        var unsupported: Set<String> = []
        /// Leave muted and blocked authors out of `getStoryAuthors`, as hatk does; off, only the front filters.
        var stripFiltered = true
    }

    let content = Mutex(Content())

    func reader(for viewer: StoryViewer?) -> any StoryReading {
        content.withLock { $0.viewers.append(viewer?.did.rawValue) }
        return Reader(fake: self, viewer: viewer?.did.rawValue)
    }

    /// Adds an author with `count` stories, the newest `minutesAgo` before `now`.
    @discardableResult
    func addAuthor(handle: String, count: Int, now: UTCTime, minutesAgo: Double = 5) -> DID {
        let did = DID.parse("did:plc:" + String(repeating: String(handle.prefix(1)), count: 24))!
        let profile = ProfileView(cid: "bafyprofile", did: did.rawValue, handle: handle, displayName: handle.capitalized)
        let stories = (0..<count).map { i -> StoryView in
            let created = now.adding(seconds: -60 * (minutesAgo + Double(count - 1 - i) * 10))
            let rkey = "3k\(handle.prefix(3))\(i)aaaaaa"
            return StoryView(
                uri: "at://\(did.rawValue)/social.grain.story/\(rkey)", cid: "bafystory\(i)", creator: profile,
                thumb: "/img/feed_thumbnail/\(did.rawValue)/bafy\(i)", fullsize: "/img/feed_fullsize/\(did.rawValue)/bafy\(i)",
                aspectRatio: AspectRatio(width: 3, height: 4), createdAt: created.iso8601)
        }
        var detailed = ProfileViewDetailed(cid: "bafyprofile", did: did.rawValue, handle: handle)
        detailed.displayName = handle.capitalized
        content.withLock {
            $0.authors.insert(StoryAuthor(profile: profile, storyCount: count, latestAt: stories.last!.createdAt), at: 0)
            $0.stories[did.rawValue] = stories
            $0.profiles[did.rawValue] = detailed
            $0.profiles[handle] = detailed
        }
        return did
    }

    /// Changes one of an author's stories (labels, favourite, comment count…).
    func update(_ did: DID, story index: Int, _ change: (inout StoryView) -> Void) {
        content.withLock { content in
            guard var stories = content.stories[did.rawValue], stories.indices.contains(index) else { return }
            change(&stories[index])
            content.stories[did.rawValue] = stories
        }
    }

    /// Adds an expired story by an author `addAuthor` made, created at `createdAt`; returns it.
    @discardableResult
    func addArchived(_ did: DID, createdAt: String) -> StoryView {
        content.withLock { content in
            let profile = content.authors.first { $0.profile.did == did.rawValue }!.profile
            let n = content.archived[did.rawValue, default: []].count
            let rkey = "3karc\(n)\(profile.handle.prefix(2))aaaa"
            var story = StoryView(
                uri: "at://\(did.rawValue)/social.grain.story/\(rkey)", cid: "bafyarc\(n)", creator: profile,
                thumb: "/img/feed_thumbnail/\(did.rawValue)/arc\(n)", fullsize: "/img/feed_fullsize/\(did.rawValue)/arc\(n)",
                aspectRatio: AspectRatio(width: 4, height: 3), createdAt: createdAt)
            story.expired = true
            content.archived[did.rawValue, default: []].append(story)
            content.archived[did.rawValue]!.sort { $0.createdAt < $1.createdAt }
            return story
        }
    }

    /// The story at `index` of an author.
    func story(_ did: DID, _ index: Int) -> StoryView {
        content.withLock { $0.stories[did.rawValue]![index] }
    }

    // The anonymous reads.
    func storyAuthors() async throws(ReadError) -> [StoryAuthor] { try await Reader(fake: self, viewer: nil).storyAuthors() }
    func stories(of actor: DID) async throws(ReadError) -> [StoryView] { try await Reader(fake: self, viewer: nil).stories(of: actor) }
    func story(_ uri: ATURI) async throws(ReadError) -> StoryView? { try await Reader(fake: self, viewer: nil).story(uri) }
    func storyArchive(of actor: DID, limit: Int, cursor: String?) async throws(ReadError) -> StoriesOutput {
        try await Reader(fake: self, viewer: nil).storyArchive(of: actor, limit: limit, cursor: cursor)
    }
    func profile(_ actor: String) async throws(ReadError) -> ProfileViewDetailed? { try await Reader(fake: self, viewer: nil).profile(actor) }
    func commentThread(on story: ATURI, limit: Int, cursor: String?) async throws(ReadError) -> CommentThreadOutput {
        try await Reader(fake: self, viewer: nil).commentThread(on: story, limit: limit, cursor: cursor)
    }
    func notifications(limit: Int, cursor: String?, countOnly: Bool) async throws(ReadError) -> NotificationsOutput {
        try await Reader(fake: self, viewer: nil).notifications(limit: limit, cursor: cursor, countOnly: countOnly)
    }
    func mutes(limit: Int, cursor: String?) async throws(ReadError) -> GraphListOutput {
        try await Reader(fake: self, viewer: nil).mutes(limit: limit, cursor: cursor)
    }
    func blocks(limit: Int, cursor: String?) async throws(ReadError) -> GraphListOutput {
        try await Reader(fake: self, viewer: nil).blocks(limit: limit, cursor: cursor)
    }
    func relationships() async throws(ReadError) -> ViewerRelationships { try await Reader(fake: self, viewer: nil).relationships() }
    func labelDefinitions() async throws(ReadError) -> [LabelDefinition] { try await Reader(fake: self, viewer: nil).labelDefinitions() }

    /// The fake as one viewer sees it.
    struct Reader: StoryReading {
        let fake: FakeStories
        let viewer: String?

        func check(_ method: String) throws(ReadError) {
            let (failure, unsupported) = fake.content.withLock { ($0.failure, $0.unsupported.contains(method)) }
            if let failure { throw failure }
            if unsupported { throw ReadError(.unsupported, endpoint: method, detail: "answered 200 with text/html, not JSON") }
        }

        func signedIn(_ method: String) throws(ReadError) -> String {
            guard let viewer else { throw ReadError(status: 401, error: "Authentication required", endpoint: method) }
            return viewer
        }

        func viewed(_ story: StoryView, _ content: FakeStories.Content) -> StoryView {
            guard content.viewedState, let viewer, content.viewed[viewer]?.contains(story.uri) == true else { return story }
            var story = story
            story.viewer = StoryViewerState(fav: story.viewer?.fav, viewed: true)
            return story
        }

        func storyAuthors() async throws(ReadError) -> [StoryAuthor] {
            try check("getStoryAuthors")
            return fake.content.withLock { content in
                // Like hatk: the strip leaves out authors the viewer muted or blocked (either way).
                let hidden = content.stripFiltered ? viewer.flatMap { content.relationships[$0]?.hiddenAuthors } ?? [] : []
                return content.authors.filter { !hidden.contains($0.profile.did) }.map { author in
                    guard content.viewedState, let viewer else { return author }
                    var author = author
                    let stories = content.stories[author.profile.did] ?? []
                    let seen = stories.filter { content.viewed[viewer]?.contains($0.uri) == true }
                    author.unviewedCount = stories.count - seen.count
                    author.lastViewedAt = seen.last?.createdAt
                    return author
                }
            }
        }

        /// hatk's hydrated view (getStories, getStoryArchive): the comment count is always there.
        func hydrated(_ story: StoryView, _ content: FakeStories.Content) -> StoryView {
            var story = viewed(story, content)
            story.commentCount = story.commentCount ?? 0
            return story
        }

        func stories(of actor: DID) async throws(ReadError) -> [StoryView] {
            try check("getStories")
            return fake.content.withLock { content in (content.stories[actor.rawValue] ?? []).map { hydrated($0, content) } }
        }

        /// Like hatk's getStory: a reduced view, without `expired`, `commentCount`, `locationDisplay` or `viewer.fav`.
        func story(_ uri: ATURI) async throws(ReadError) -> StoryView? {
            try check("getStory")
            return fake.content.withLock { content in
                ((content.archived[uri.authority] ?? []) + (content.stories[uri.authority] ?? [])).first { $0.uri == uri.description }
                    .map { story in
                        var story = viewed(story, content)
                        story.expired = nil
                        story.commentCount = nil
                        story.locationDisplay = nil
                        story.viewer?.fav = nil
                        if story.viewer == StoryViewerState() { story.viewer = nil }
                        return story
                    }
            }
        }

        func storyArchive(of actor: DID, limit: Int, cursor: String?) async throws(ReadError) -> StoriesOutput {
            try check("getStoryArchive")
            return StoriesOutput(
                stories: fake.content.withLock { content in
                    content.archiveReads += 1
                    let all = (content.archived[actor.rawValue] ?? []) + (content.stories[actor.rawValue] ?? [])
                    return Array(all.reversed().prefix(limit)).map { hydrated($0, content) }
                })
        }

        func profile(_ actor: String) async throws(ReadError) -> ProfileViewDetailed? {
            try check("getActorProfile")
            return fake.content.withLock { content in
                guard var profile = content.profiles[actor] else { return nil }
                if let viewer, let relationships = content.relationships[viewer], viewer != profile.did {
                    let state = ProfileViewerState(
                        blocking: relationships.blocking[profile.did], blockedBy: relationships.blockedBy.contains(profile.did) ? true : nil,
                        muted: relationships.muted.contains(profile.did) ? true : nil)
                    profile.viewer = state.isEmpty ? nil : state
                }
                return profile
            }
        }

        func commentThread(on story: ATURI, limit: Int, cursor: String?) async throws(ReadError) -> CommentThreadOutput {
            try check("getCommentThread")
            let all = fake.content.withLock { $0.comments[story.description] ?? [] }
            let after = all.filter { $0.createdAt > (cursor ?? "") }
            let page = Array(after.prefix(limit))
            return CommentThreadOutput(comments: page, cursor: after.count > limit ? page.last?.createdAt : nil, totalCount: all.count)
        }

        func notifications(limit: Int, cursor: String?, countOnly: Bool) async throws(ReadError) -> NotificationsOutput {
            try check("getNotifications")
            let viewer = try signedIn("getNotifications")
            let (all, unseen) = fake.content.withLock { content in
                content.notificationReads += 1
                let all = content.notifications[viewer] ?? []
                return (all, content.unseenNotifications[viewer] ?? all.count)
            }
            guard !countOnly else { return NotificationsOutput(notifications: [], unseenCount: unseen) }
            // hatk's paging: newest first, the cursor is the last item's createdAt.
            let after = cursor.map { cursor in all.filter { $0.createdAt < cursor } } ?? all
            let page = Array(after.prefix(limit))
            return NotificationsOutput(
                notifications: page, cursor: after.count > limit ? page.last?.createdAt : nil, unseenCount: unseen)
        }

        func mutes(limit: Int, cursor: String?) async throws(ReadError) -> GraphListOutput {
            try check("getMutes")
            let viewer = try signedIn("getMutes")
            let muted = fake.content.withLock { $0.relationships[viewer]?.muted ?? [] }
            return GraphListOutput(items: muted.sorted().map { GraphItem(did: $0, handle: $0) })
        }

        func blocks(limit: Int, cursor: String?) async throws(ReadError) -> GraphListOutput {
            try check("getBlocks")
            let viewer = try signedIn("getBlocks")
            let blocking = fake.content.withLock { $0.relationships[viewer]?.blocking ?? [:] }
            return GraphListOutput(items: blocking.sorted { $0.key < $1.key }.map { GraphItem(did: $0.key, handle: $0.key, blockUri: $0.value) })
        }

        func relationships() async throws(ReadError) -> ViewerRelationships {
            try check("relationships")
            let viewer = try signedIn("relationships")
            return fake.content.withLock { $0.relationships[viewer] ?? .none }
        }

        func labelDefinitions() async throws(ReadError) -> [LabelDefinition] {
            let labels = fake.content.withLock { content -> [LabelDefinition]? in
                content.labelReads += 1
                return content.labels
            }
            try check("describeLabels")
            guard let labels else { throw ReadError(.unsupported, endpoint: "describeLabels", detail: "answered 200 with text/html, not JSON") }
            return labels
        }
    }
}
