public import ATProto
public import HatkClient
public import Readers

/// Where the front reads stories, for one visitor at a time: the embedded backend in process, or a hatk server
/// over HTTP. The reader it gives answers as that visitor (their favourites, mutes and viewed state).
public protocol StorySource: Sendable {
    /// A reader answering as `viewer`; nil reads anonymously.
    func reader(for viewer: StoryViewer?) -> any StoryReading
}

/// A signed-in visitor as a story source sees them.
public struct StoryViewer: Sendable {
    public let did: DID
    /// DPoP credentials, fetched (and refreshed) only if a read needs them: the in-process reader never does.
    public let credentials: @Sendable () async throws -> DPoPCredentials

    public init(did: DID, credentials: @escaping @Sendable () async throws -> DPoPCredentials) {
        self.did = did
        self.credentials = credentials
    }
}

/// A remote hatk (grain.social or a self-hosted one), read over HTTP.
public struct RemoteStories: StorySource {
    let client: HatkClient

    public init(client: HatkClient) { self.client = client }

    public func reader(for viewer: StoryViewer?) -> any StoryReading {
        guard let viewer else { return client.reader }
        return client.reading(as: viewer.credentials)
    }
}
