public import ATProto
public import HatkClient
public import Readers

/// Where the front's stories come from and go to, and where people sign in: the embedded backend in this process,
/// or a hatk server (grain.social or another).
public struct FrontUpstream: Sendable {
    /// Where stories are read.
    public var stories: any StorySource
    /// Writes (uploadBlob, createRecord, deleteRecord) go through this client with the visitor's credentials.
    public var writer: HatkClient
    /// The authorization server people sign in with.
    public var signIn: SignInServers.Configuration
    /// The embedded household's photos read in this process, for link previews; nil fetches them over HTTP with the
    /// writer's client (a remote hatk's image host).
    public var photos: (any PhotoSource)?
    /// Writes Grain's viewed state in this process (the embedded backend, whose reads are in process too), so that
    /// serving pages never opens a connection to our own listener; nil sends `markStoriesViewed` to the upstream
    /// with the member's credentials.
    public var markViewed: (@Sendable (_ stories: [ATURI], _ viewer: DID) async throws -> Void)?

    public init(
        stories: any StorySource, writer: HatkClient, signIn: SignInServers.Configuration, photos: (any PhotoSource)? = nil,
        markViewed: (@Sendable (_ stories: [ATURI], _ viewer: DID) async throws -> Void)? = nil
    ) {
        self.stories = stories
        self.writer = writer
        self.signIn = signIn
        self.photos = photos
        self.markViewed = markViewed
    }
}
