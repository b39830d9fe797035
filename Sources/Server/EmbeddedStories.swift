import ATProto
import App
import Backend
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
}
