public import ATProto
public import Lexicon

/// What one account has seen: every story by URI, and per author the newest story seen.
///
/// An author counts as seen once their newest story has been seen (iOS Grain's rule): a new story
/// makes them unseen again, and jumping to the last segment is a deliberate "seen".
///
/// The marks here are the front's own (its store, or marks not yet sent upstream); an upstream with Grain's viewed
/// state adds its own through the views (`viewer.viewed`, `unviewedCount`, `lastViewedAt`), and either counts.
public struct SeenState: Sendable, Equatable {
    /// Every story seen, by AT-URI: a story's own ring and where an author's stories reopen.
    public var uris: Set<String> = []
    /// Author DID → creation time of the newest of their stories this account has seen.
    public var newestSeen: [String: UTCTime] = [:]

    /// Nothing seen: what an anonymous visitor has on the server (theirs live in their browser).
    public static let none = SeenState()

    /// An empty state, which marks fill as they are read or made.
    public init() {}

    /// Whether the story counts as seen, by the upstream's viewed state or by the front's own marks: either is enough.
    public func hasSeen(_ story: StoryView) -> Bool { story.viewer?.viewed == true || uris.contains(story.uri) }

    /// True when the author's newest active story (`latestAt`) has been seen, or the upstream counts nothing unviewed.
    public func hasSeenAll(of author: StoryAuthor) -> Bool {
        if author.unviewedCount == 0 { return true }
        guard let latest = UTCTime(iso8601: author.latestAt) else { return false }
        let upstream = author.lastViewedAt.flatMap(UTCTime.init(iso8601:))
        guard let newest = [newestSeen[author.profile.did], upstream].compactMap({ $0 }).max() else { return false }
        return !(newest < latest)
    }

    /// Where reopening an author starts: the first story not yet seen, or the first when all are.
    public func startIndex(in stories: [StoryView]) -> Int {
        stories.firstIndex { !hasSeen($0) } ?? 0
    }

    /// Authors with something new first, then the fully seen ones, each group keeping the server's order.
    public func ordered(_ authors: [StoryAuthor]) -> [StoryAuthor] {
        authors.filter { !hasSeenAll(of: $0) } + authors.filter { hasSeenAll(of: $0) }
    }

    /// Records one story as seen; an older story never lowers its author's newest, so marks may come in any order.
    public mutating func insert(uri: String, author: String, createdAt: UTCTime) {
        uris.insert(uri)
        if let newest = newestSeen[author], !(newest < createdAt) { return }
        newestSeen[author] = createdAt
    }
}
