import ATProto
import App
import Backend
import HTTPServer
import Lexicon
import Readers

/// The embedded household's stories read in process: the backend's query layer called directly, with the viewer's
/// identity passed along, so a signed-in page makes no loopback call and signs no DPoP proof for its own process
/// to verify. Image URLs are relative: they are on whatever origin the page is.
struct EmbeddedStories: StorySource {
    let queries: BackendQueries

    func reader(for viewer: StoryViewer?) -> any StoryReading {
        EmbeddedReader(queries: queries, viewer: viewer?.did)
    }
}

/// `StoryReading` over `BackendQueries` as one viewer (or anyone). The backend's refusals are sorted into
/// ``ReadError`` by their status and error string, as a remote hatk's are, so the front handles both alike.
struct EmbeddedReader: StoryReading {
    let queries: BackendQueries
    let viewer: DID?

    func answer<T>(_ endpoint: String, _ body: () throws -> T) throws(ReadError) -> T {
        do {
            return try body()
        } catch let error as BackendError {
            throw ReadError(status: error.status.code, error: error.error, endpoint: endpoint, message: error.message ?? "")
        } catch {
            throw ReadError(.unavailable, endpoint: endpoint, status: 500, detail: "500 InternalServerError: \(error)")
        }
    }

    func storyAuthors() async throws(ReadError) -> [StoryAuthor] {
        try answer("getStoryAuthors") { try queries.storyAuthors(viewer: viewer, imageBase: "").authors }
    }

    func stories(of actor: DID) async throws(ReadError) -> [StoryView] {
        try answer("getStories") { try queries.stories(of: actor, viewer: viewer, imageBase: "").stories }
    }

    func story(_ uri: ATURI) async throws(ReadError) -> StoryView? {
        try answer("getStory") { try queries.story(uri, viewer: viewer, imageBase: "").story }
    }

    func storyArchive(of actor: DID, limit: Int, cursor: String?) async throws(ReadError) -> StoriesOutput {
        try answer("getStoryArchive") { try queries.storyArchive(of: actor, limit: limit, cursor: cursor, viewer: viewer, imageBase: "") }
    }

    func profile(_ actor: String) async throws(ReadError) -> ProfileViewDetailed? {
        do {
            return try answer("getActorProfile") { try queries.actorProfile(actor, viewer: viewer, imageBase: "") }
        } catch let error {
            // As over HTTP: an unknown actor is hatk's 400 "Actor not found", which reads as nobody.
            if let status = error.status, status == 400 || status == 404 { return nil }
            throw error
        }
    }

    // MARK: SocialReading

    func commentThread(on story: ATURI, limit: Int, cursor: String?) async throws(ReadError) -> CommentThreadOutput {
        try answer("getCommentThread") { try queries.commentThread(subject: story, limit: limit, cursor: cursor, viewer: viewer, imageBase: "") }
    }

    func notifications(limit: Int, cursor: String?, countOnly: Bool) async throws(ReadError) -> NotificationsOutput {
        let viewer = try signedIn("getNotifications")
        return try answer("getNotifications") {
            try queries.notifications(viewer: viewer, limit: limit, cursor: cursor, countOnly: countOnly, imageBase: "")
        }
    }

    func mutes(limit: Int, cursor: String?) async throws(ReadError) -> GraphListOutput {
        let viewer = try signedIn("getMutes")
        return try answer("getMutes") { try queries.mutes(viewer: viewer, limit: limit, cursor: cursor, imageBase: "") }
    }

    func blocks(limit: Int, cursor: String?) async throws(ReadError) -> GraphListOutput {
        let viewer = try signedIn("getBlocks")
        return try answer("getBlocks") { try queries.blocks(viewer: viewer, limit: limit, cursor: cursor, imageBase: "") }
    }

    func relationships() async throws(ReadError) -> ViewerRelationships {
        let viewer = try signedIn("relationships")
        let stored = try answer("relationships") { try queries.relationships(of: viewer) }
        return ViewerRelationships(muted: stored.muted, blocking: stored.blocking, blockedBy: stored.blockedBy)
    }

    func labelDefinitions() async throws(ReadError) -> [LabelDefinition] {
        queries.describeLabels().definitions ?? []
    }

    /// The viewer, or hatk's refusal of a read that needs one.
    func signedIn(_ endpoint: String) throws(ReadError) -> DID {
        guard let viewer else { throw ReadError(.signInRequired, endpoint: endpoint, status: 401, detail: "401 Authentication required") }
        return viewer
    }
}

extension EmbeddedReader: MemoryReading {
    /// The household's store finds a week's calendar days in one query.
    var memories: (any MemoryReading)? { self }

    func stories(onMonthDays monthDays: [String], before cutoff: UTCTime) async throws(ReadError) -> [StoryView] {
        try answer("memories") { try queries.stories(onMonthDays: monthDays, before: cutoff, viewer: viewer, imageBase: "").stories }
    }
}
