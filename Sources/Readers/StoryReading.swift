public import ATProto
public import Lexicon

/// The reads every page needs, whichever hatk server answers them (with the social reads of ``SocialReading``).
public protocol StoryReading: SocialReading {
    /// Authors with stories from the last 24 hours, newest first.
    func storyAuthors() async throws(ReadError) -> [StoryAuthor]
    /// One author's active stories, oldest first (play order).
    func stories(of actor: DID) async throws(ReadError) -> [StoryView]
    /// One story by URI, expired or not; nil when it does not exist.
    func story(_ uri: ATURI) async throws(ReadError) -> StoryView?
    /// Every story of an author, newest first, a page at a time.
    func storyArchive(of actor: DID, limit: Int, cursor: String?) async throws(ReadError) -> StoriesOutput
    /// A profile by DID or handle; nil when the actor is unknown.
    func profile(_ actor: String) async throws(ReadError) -> ProfileViewDetailed?
    /// The reader's own way to find "On this day" candidates, where it has one; nil where they are built from the
    /// archives of the people the strip shows.
    var memories: (any MemoryReading)? { get }
}

extension StoryReading {
    /// A remote hatk has no memories method: by default there is none.
    public var memories: (any MemoryReading)? { nil }
}

/// A reader that finds "On this day" candidates itself: the embedded household's, in one query of its store. A
/// `StoryReading` offers it as ``StoryReading/memories``; without one, the front builds memories from archives.
public protocol MemoryReading: Sendable {
    /// Visible stories created on one of `monthDays` (`MM-DD`, UTC) before `cutoff`, oldest first, without authors
    /// the viewer muted or blocked.
    func stories(onMonthDays monthDays: [String], before cutoff: UTCTime) async throws(ReadError) -> [StoryView]
}
