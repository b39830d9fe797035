public import ATProto

/// Output of `social.grain.unspecced.getStoryAuthors`.
public struct StoryAuthorsOutput: Codable, Sendable, Equatable {
    public var authors: [StoryAuthor]
    public init(authors: [StoryAuthor]) { self.authors = authors }
}

/// Output of `getStories` (and the `stories` half of `getStoryArchive`).
public struct StoriesOutput: Codable, Sendable, Equatable {
    public var stories: [StoryView]
    public var cursor: String?
    public init(stories: [StoryView], cursor: String? = nil) {
        self.stories = stories
        self.cursor = cursor
    }
}

/// Output of `getStory`: `{}` when not found.
public struct StoryOutput: Codable, Sendable, Equatable {
    public var story: StoryView?
    public init(story: StoryView?) { self.story = story }
}

/// The envelope `dev.hatk.getRecord` wraps a record in.
public struct RecordEnvelope: Codable, Sendable, Equatable {
    public var uri: String
    public var cid: String
    public var did: String
    public var handle: String?
    public var indexedAt: String
    public var value: JSONValue
    public var labels: [Label]?

    public init(uri: String, cid: String, did: String, handle: String?, indexedAt: String, value: JSONValue) {
        self.uri = uri
        self.cid = cid
        self.did = did
        self.handle = handle
        self.indexedAt = indexedAt
        self.value = value
    }

    enum CodingKeys: String, CodingKey {
        case uri, cid, did, handle, value, labels
        case indexedAt = "indexed_at"
    }
}

/// Output of `dev.hatk.getRecord`.
public struct RecordOutput: Codable, Sendable, Equatable {
    public var record: RecordEnvelope
    public init(record: RecordEnvelope) { self.record = record }
}

/// Output of `dev.hatk.uploadBlob`.
public struct UploadBlobOutput: Codable, Sendable, Equatable {
    public var blob: BlobRef
    public init(blob: BlobRef) { self.blob = blob }
}

/// Output of `createRecord` and `putRecord`.
public struct WriteOutput: Codable, Sendable, Equatable {
    public var uri: String
    public var cid: String
    public var validationStatus: String?
    public init(uri: String, cid: String, validationStatus: String? = "valid") {
        self.uri = uri
        self.cid = cid
        self.validationStatus = validationStatus
    }
}

/// Output of `dev.hatk.getPreferences`: every preference of the viewer by key.
public struct PreferencesOutput: Codable, Sendable, Equatable {
    public var preferences: [String: JSONValue]
    public init(preferences: [String: JSONValue]) { self.preferences = preferences }
}

/// The error body every hatk endpoint uses: `{"error": "..."}`.
public struct XRPCErrorBody: Codable, Sendable, Equatable {
    public var error: String
    public var message: String?
    public init(error: String, message: String? = nil) {
        self.error = error
        self.message = message
    }
}
