public import ATProto
public import Lexicon

/// The reads the viewer needs beyond stories: comment threads, the viewer's activity, whom they muted or block, and
/// the upstream's label definitions. Every `StoryReading` answers them, so the front has one seam per backend.
///
/// Reads that only make sense for a signed-in viewer (notifications, mutes, blocks, relationships) fail with
/// ``ReadError/Kind/signInRequired`` for an anonymous reader.
public protocol SocialReading: Sendable {
    /// `getCommentThread`: comments on a story, oldest first, a page at a time.
    func commentThread(on story: ATURI, limit: Int, cursor: String?) async throws(ReadError) -> CommentThreadOutput
    /// `getNotifications`: favourites and comments on the viewer's stories (and other reasons), newest first.
    func notifications(limit: Int, cursor: String?, countOnly: Bool) async throws(ReadError) -> NotificationsOutput
    /// `getMutes`: whom the viewer muted.
    func mutes(limit: Int, cursor: String?) async throws(ReadError) -> GraphListOutput
    /// `getBlocks`: whom the viewer blocks, with each block record's URI.
    func blocks(limit: Int, cursor: String?) async throws(ReadError) -> GraphListOutput
    /// Whom the viewer muted, blocks or is blocked by, for filtering the stories hatk does not filter.
    func relationships() async throws(ReadError) -> ViewerRelationships
    /// `dev.hatk.describeLabels`: the upstream's label definitions, in its order.
    func labelDefinitions() async throws(ReadError) -> [LabelDefinition]
}

/// Whom a viewer has set apart: their stories drop out of the strip, the kiosk and the viewer's walk.
public struct ViewerRelationships: Sendable, Equatable {
    /// DIDs the viewer muted.
    public var muted: Set<String>
    /// DIDs the viewer blocks, each with its block record's URI (delete it to unblock).
    public var blocking: [String: String]
    /// DIDs that block the viewer, where the upstream says (the embedded backend does; a remote hatk only filters them
    /// out of `getStoryAuthors` and tells per profile).
    public var blockedBy: Set<String>

    public init(muted: Set<String> = [], blocking: [String: String] = [:], blockedBy: Set<String> = []) {
        self.muted = muted
        self.blocking = blocking
        self.blockedBy = blockedBy
    }

    public static let none = ViewerRelationships()

    /// Every DID whose stories the viewer should not be walked through.
    public var hiddenAuthors: Set<String> { muted.union(blocking.keys).union(blockedBy) }

    /// Blocked in either direction: nothing of theirs is shown, even when asked for by link.
    public func isBlocked(_ did: String) -> Bool { blocking[did] != nil || blockedBy.contains(did) }
}
