public import ATProto

/// `social.grain.defs#aspectRatio`.
public struct AspectRatio: Codable, Sendable, Equatable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// `community.lexicon.location.hthree`: an H3 cell (lower-case hex) and a display name.
public struct HThreeLocation: Codable, Sendable, Equatable {
    public var value: String
    public var name: String?
    public init(value: String, name: String? = nil) {
        self.value = value
        self.name = name
    }
}

/// `community.lexicon.location.address`.
public struct Address: Codable, Sendable, Equatable {
    public var country: String
    public var postalCode: String?
    public var region: String?
    public var locality: String?
    public var street: String?
    public var name: String?
    public init(
        country: String, postalCode: String? = nil, region: String? = nil, locality: String? = nil,
        street: String? = nil, name: String? = nil
    ) {
        self.country = country
        self.postalCode = postalCode
        self.region = region
        self.locality = locality
        self.street = street
        self.name = name
    }
}

/// `com.atproto.label.defs#selfLabels`.
public struct SelfLabels: Codable, Sendable, Equatable {
    public struct Value: Codable, Sendable, Equatable {
        public var val: String
        public init(val: String) { self.val = val }
    }
    public var type: String? = "com.atproto.label.defs#selfLabels"
    public var values: [Value]
    public init(_ values: [String]) { self.values = values.map(Value.init(val:)) }
    enum CodingKeys: String, CodingKey {
        case type = "$type"
        case values
    }
}

/// The `social.grain.story` record.
public struct StoryRecord: Codable, Sendable, Equatable {
    public static let collection = "social.grain.story"
    /// How long a story is shown after its `createdAt`, as Grain computes it at query time: 24 hours.
    public static let lifetime: Duration = .seconds(24 * 60 * 60)

    /// Whether a story made at `created` has expired by `now`.
    public static func isExpired(createdAt created: UTCTime, now: UTCTime) -> Bool {
        now.microseconds - created.microseconds > lifetimeMicroseconds
    }

    static let lifetimeMicroseconds = lifetime.components.seconds * 1_000_000
    public var type: String? = StoryRecord.collection
    public var media: BlobRef
    public var aspectRatio: AspectRatio
    public var location: HThreeLocation?
    public var address: Address?
    public var labels: SelfLabels?
    public var createdAt: String

    public init(
        media: BlobRef, aspectRatio: AspectRatio, location: HThreeLocation? = nil, address: Address? = nil,
        labels: SelfLabels? = nil, createdAt: String
    ) {
        self.media = media
        self.aspectRatio = aspectRatio
        self.location = location
        self.address = address
        self.labels = labels
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case type = "$type"
        case media, aspectRatio, location, address, labels, createdAt
    }
}

/// The `social.grain.actor.profile` record (key `self`).
public struct ProfileRecord: Codable, Sendable, Equatable {
    public static let collection = "social.grain.actor.profile"
    public var type: String? = ProfileRecord.collection
    public var displayName: String?
    public var description: String?
    public var avatar: BlobRef?
    public var createdAt: String?

    public init(displayName: String? = nil, description: String? = nil, avatar: BlobRef? = nil, createdAt: String? = nil) {
        self.displayName = displayName
        self.description = description
        self.avatar = avatar
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case type = "$type"
        case displayName, description, avatar, createdAt
    }
}
