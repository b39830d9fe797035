public import ATProto

/// The `social.grain.favorite` record: a favourite (heart) on a story, gallery or comment.
public struct FavoriteRecord: Codable, Sendable, Equatable {
    public static let collection = "social.grain.favorite"
    public var type: String? = FavoriteRecord.collection
    public var subject: String
    public var createdAt: String

    public init(subject: String, createdAt: String) {
        self.subject = subject
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case type = "$type"
        case subject, createdAt
    }
}

/// The `social.grain.comment` record. `facets` are `app.bsky.richtext.facet` objects, kept as JSON.
public struct CommentRecord: Codable, Sendable, Equatable {
    public static let collection = "social.grain.comment"
    /// The lexicon's limits on `text`.
    public static let maxGraphemes = 300
    public static let maxBytes = 3000

    public var type: String? = CommentRecord.collection
    public var text: String
    public var facets: [JSONValue]?
    public var subject: String
    public var focus: String?
    public var replyTo: String?
    public var createdAt: String

    public init(
        text: String, subject: String, createdAt: String, facets: [JSONValue]? = nil, replyTo: String? = nil, focus: String? = nil
    ) {
        self.text = text
        self.subject = subject
        self.createdAt = createdAt
        self.facets = facets
        self.replyTo = replyTo
        self.focus = focus
    }

    enum CodingKeys: String, CodingKey {
        case type = "$type"
        case text, facets, subject, focus, replyTo, createdAt
    }
}

/// The `social.grain.graph.block` record: the author blocks `subject` (a DID).
public struct BlockRecord: Codable, Sendable, Equatable {
    public static let collection = "social.grain.graph.block"
    public var type: String? = BlockRecord.collection
    public var subject: String
    public var createdAt: String

    public init(subject: String, createdAt: String) {
        self.subject = subject
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case type = "$type"
        case subject, createdAt
    }
}
