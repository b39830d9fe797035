public import ATProto

/// `social.grain.comment.defs#viewerState`.
public struct CommentViewerState: Codable, Sendable, Equatable {
    public var fav: String?
    public init(fav: String? = nil) { self.fav = fav }
}

/// `social.grain.comment.defs#commentView`, as `getCommentThread` fills it for a story.
public struct CommentView: Codable, Sendable, Equatable {
    public var uri: String
    public var cid: String
    public var author: ProfileView
    public var text: String
    public var facets: [JSONValue]?
    public var replyTo: String?
    public var createdAt: String
    public var favCount: Int?
    public var viewer: CommentViewerState?
    /// True when the viewer muted the author: show it collapsed, with a way to expand.
    public var muted: Bool?

    public init(uri: String, cid: String, author: ProfileView, text: String, createdAt: String) {
        self.uri = uri
        self.cid = cid
        self.author = author
        self.text = text
        self.createdAt = createdAt
    }
}

/// Output of `social.grain.unspecced.getCommentThread`: oldest first, paged by `createdAt`.
public struct CommentThreadOutput: Codable, Sendable, Equatable {
    public var comments: [CommentView]
    public var cursor: String?
    public var totalCount: Int?
    public init(comments: [CommentView], cursor: String? = nil, totalCount: Int? = nil) {
        self.comments = comments
        self.cursor = cursor
        self.totalCount = totalCount
    }
}

/// Reasons of `getNotifications` that concern stories.
public enum NotificationReason {
    public static let storyFavorite = "story-favorite"
    public static let storyComment = "story-comment"
}

/// `social.grain.unspecced.getNotifications#notificationItem` (the story fields; gallery ones are never set here).
public struct NotificationItem: Codable, Sendable, Equatable {
    /// The favourite's or comment's URI.
    public var uri: String
    /// `story-favorite`, `story-comment`, or another of Grain's reasons from a remote hatk.
    public var reason: String
    public var createdAt: String
    public var author: ProfileView
    public var storyUri: String?
    public var storyThumb: String?
    public var commentText: String?

    public init(uri: String, reason: String, createdAt: String, author: ProfileView) {
        self.uri = uri
        self.reason = reason
        self.createdAt = createdAt
        self.author = author
    }
}

/// Output of `social.grain.unspecced.getNotifications`, newest first.
public struct NotificationsOutput: Codable, Sendable, Equatable {
    public var notifications: [NotificationItem]
    public var cursor: String?
    /// Notifications newer than the viewer's `lastSeenNotifications` preference (all of them when it is unset).
    public var unseenCount: Int?
    public init(notifications: [NotificationItem], cursor: String? = nil, unseenCount: Int? = nil) {
        self.notifications = notifications
        self.cursor = cursor
        self.unseenCount = unseenCount
    }
}

/// The hatk preference key Grain's server reads as "notifications seen up to": an ISO datetime string, set with
/// `dev.hatk.putPreference` (`server/xrpc/getNotifications.ts`).
public enum NotificationPreference {
    public static let lastSeenKey = "lastSeenNotifications"
}

/// One account of `social.grain.unspecced.getMutes` or `getBlocks`.
public struct GraphItem: Codable, Sendable, Equatable {
    public var did: String
    public var handle: String?
    public var displayName: String?
    public var avatar: String?
    /// `getBlocks` only: the block record, for undo (`deleteRecord` with its rkey).
    public var blockUri: String?

    public init(did: String, handle: String? = nil, displayName: String? = nil, avatar: String? = nil, blockUri: String? = nil) {
        self.did = did
        self.handle = handle
        self.displayName = displayName
        self.avatar = avatar
        self.blockUri = blockUri
    }
}

/// Output of `getMutes` and `getBlocks`.
public struct GraphListOutput: Codable, Sendable, Equatable {
    public var items: [GraphItem]
    public var cursor: String?
    public init(items: [GraphItem], cursor: String? = nil) {
        self.items = items
        self.cursor = cursor
    }
}

/// What a report is about: a record (a `com.atproto.repo.strongRef`) or a whole account (`#repoRef`).
public enum ReportSubject: Sendable, Equatable, Codable {
    case record(uri: String, cid: String)
    case account(did: String)

    enum CodingKeys: String, CodingKey {
        case type = "$type"
        case uri, cid, did
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let uri = try c.decodeIfPresent(String.self, forKey: .uri) {
            self = .record(uri: uri, cid: try c.decodeIfPresent(String.self, forKey: .cid) ?? "")
        } else {
            self = .account(did: try c.decode(String.self, forKey: .did))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .record(let uri, let cid):
            try c.encode("com.atproto.repo.strongRef", forKey: .type)
            try c.encode(uri, forKey: .uri)
            try c.encode(cid, forKey: .cid)
        case .account(let did):
            try c.encode("dev.hatk.createReport#repoRef", forKey: .type)
            try c.encode(did, forKey: .did)
        }
    }
}

/// Output of `dev.hatk.createReport`.
public struct ReportOutput: Codable, Sendable, Equatable {
    public var id: Int
    public var subject: JSONValue
    public var label: String
    public var reason: String?
    public var reportedBy: String
    public var createdAt: String

    public init(id: Int, subject: JSONValue, label: String, reason: String?, reportedBy: String, createdAt: String) {
        self.id = id
        self.subject = subject
        self.label = label
        self.reason = reason
        self.reportedBy = reportedBy
        self.createdAt = createdAt
    }
}

/// Input of `social.grain.unspecced.markStoriesViewed`: 1 to 100 story URIs.
public enum MarkStoriesViewed {
    public static let maxStories = 100
}
