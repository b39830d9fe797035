import ATProto
import Foundation
import HatkClient
import Lexicon
import Synchronization

@testable import App

/// A story source held in memory: authors and their stories, answering as any viewer, and counting who asked.
final class FakeStories: StorySource, StoryReading {
    struct Content {
        var authors: [StoryAuthor] = []
        var stories: [String: [StoryView]] = [:]
        var profiles: [String: ProfileViewDetailed] = [:]
        /// The viewer DIDs readers were made for, in order.
        var viewers: [String?] = []
        /// Set to make every read fail as an unreachable upstream would.
        var failure: HatkError?
    }

    let content = Mutex(Content())

    func reader(for viewer: StoryViewer?) -> any StoryReading {
        content.withLock { $0.viewers.append(viewer?.did.rawValue) }
        return self
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

    private func check() throws(HatkError) {
        if let failure = content.withLock({ $0.failure }) { throw failure }
    }

    func storyAuthors() async throws(HatkError) -> [StoryAuthor] {
        try check()
        return content.withLock { $0.authors }
    }

    func stories(of actor: DID) async throws(HatkError) -> [StoryView] {
        try check()
        return content.withLock { $0.stories[actor.rawValue] ?? [] }
    }

    func story(_ uri: ATURI) async throws(HatkError) -> StoryView? {
        try check()
        return content.withLock { $0.stories[uri.authority]?.first { $0.uri == uri.description } }
    }

    func storyArchive(of actor: DID, limit: Int, cursor: String?) async throws(HatkError) -> StoriesOutput {
        try check()
        return StoriesOutput(stories: content.withLock { Array(($0.stories[actor.rawValue] ?? []).reversed().prefix(limit)) })
    }

    func profile(_ actor: String) async throws(HatkError) -> ProfileViewDetailed? {
        try check()
        return content.withLock { $0.profiles[actor] }
    }
}
