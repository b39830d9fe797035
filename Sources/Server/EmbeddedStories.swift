import ATProto
import App
import Backend
import HTTPServer
import HatkClient
import Lexicon

/// The embedded household's stories read in process: the backend's query layer called directly, with the viewer's
/// identity passed along, so a signed-in page makes no loopback call and signs no DPoP proof for its own process
/// to verify. Image URLs are relative: they are on whatever origin the page is.
struct EmbeddedStories: StorySource {
    let queries: BackendQueries

    func reader(for viewer: StoryViewer?) -> any StoryReading {
        EmbeddedReader(queries: queries, viewer: viewer?.did)
    }
}

/// `StoryReading` over `BackendQueries` as one viewer (or anyone). Refusals keep hatk's status and error string,
/// so the front handles them exactly as it would a remote hatk's.
struct EmbeddedReader: StoryReading {
    let queries: BackendQueries
    let viewer: DID?

    func answer<T>(_ endpoint: String, _ body: () throws -> T) throws(HatkError) -> T {
        do {
            return try body()
        } catch let error as BackendError {
            throw HatkError(kind: .http(status: error.status.code, error: error.error), endpoint: endpoint, detail: error.message ?? "")
        } catch {
            throw HatkError(kind: .http(status: 500, error: "InternalServerError"), endpoint: endpoint, detail: "\(error)")
        }
    }

    func storyAuthors() async throws(HatkError) -> [StoryAuthor] {
        try answer("getStoryAuthors") { try queries.storyAuthors(viewer: viewer, imageBase: "").authors }
    }

    func stories(of actor: DID) async throws(HatkError) -> [StoryView] {
        try answer("getStories") { try queries.stories(of: actor, viewer: viewer, imageBase: "").stories }
    }

    func story(_ uri: ATURI) async throws(HatkError) -> StoryView? {
        try answer("getStory") { try queries.story(uri, viewer: viewer, imageBase: "").story }
    }

    func storyArchive(of actor: DID, limit: Int, cursor: String?) async throws(HatkError) -> StoriesOutput {
        try answer("getStoryArchive") { try queries.storyArchive(of: actor, limit: limit, cursor: cursor, viewer: viewer, imageBase: "") }
    }

    func profile(_ actor: String) async throws(HatkError) -> ProfileViewDetailed? {
        do {
            return try answer("getActorProfile") { try queries.actorProfile(actor, viewer: viewer, imageBase: "") }
        } catch let error {
            // As over HTTP: an unknown actor is hatk's 400 "Actor not found", which reads as nobody.
            if case .http(let status, _) = error.kind, status == 400 || status == 404 { return nil }
            throw error
        }
    }

    // MARK: SocialReading

    func commentThread(on story: ATURI, limit: Int, cursor: String?) async throws(HatkError) -> CommentThreadOutput {
        try answer("getCommentThread") { try queries.commentThread(subject: story, limit: limit, cursor: cursor, viewer: viewer, imageBase: "") }
    }

    func notifications(limit: Int, cursor: String?, countOnly: Bool) async throws(HatkError) -> NotificationsOutput {
        let viewer = try signedIn("getNotifications")
        return try answer("getNotifications") {
            try queries.notifications(viewer: viewer, limit: limit, cursor: cursor, countOnly: countOnly, imageBase: "")
        }
    }

    func mutes(limit: Int, cursor: String?) async throws(HatkError) -> GraphListOutput {
        let viewer = try signedIn("getMutes")
        return try answer("getMutes") { try queries.mutes(viewer: viewer, limit: limit, cursor: cursor, imageBase: "") }
    }

    func blocks(limit: Int, cursor: String?) async throws(HatkError) -> GraphListOutput {
        let viewer = try signedIn("getBlocks")
        return try answer("getBlocks") { try queries.blocks(viewer: viewer, limit: limit, cursor: cursor, imageBase: "") }
    }

    func relationships() async throws(HatkError) -> ViewerRelationships {
        let viewer = try signedIn("relationships")
        let stored = try answer("relationships") { try queries.relationships(of: viewer) }
        return ViewerRelationships(muted: stored.muted, blocking: stored.blocking, blockedBy: stored.blockedBy)
    }

    func labelDefinitions() async throws(HatkError) -> [LabelDefinition] {
        queries.describeLabels().definitions ?? []
    }

    /// The viewer, or hatk's refusal of a read that needs one.
    func signedIn(_ endpoint: String) throws(HatkError) -> DID {
        guard let viewer else { throw HatkError(kind: .http(status: 401, error: "Authentication required"), endpoint: endpoint) }
        return viewer
    }
}

extension EmbeddedReader: MemoryReading {
    /// The household's store finds a week's calendar days in one query.
    var memories: (any MemoryReading)? { self }

    func stories(onMonthDays monthDays: [String], before cutoff: UTCTime) async throws(HatkError) -> [StoryView] {
        try answer("memories") { try queries.stories(onMonthDays: monthDays, before: cutoff, viewer: viewer, imageBase: "").stories }
    }
}
