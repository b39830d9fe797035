import Foundation

/// `social.grain.actor.defs#profileView`: the author block of a story.
public struct ProfileView: Codable, Sendable, Equatable {
    public var cid: String
    public var did: String
    public var handle: String
    public var displayName: String?
    public var avatar: String?

    public init(cid: String, did: String, handle: String, displayName: String? = nil, avatar: String? = nil) {
        self.cid = cid
        self.did = did
        self.handle = handle
        self.displayName = displayName
        self.avatar = avatar
    }

    /// What people see as the name: the display name when set, else the handle.
    public var name: String {
        if let displayName, !displayName.trimmingCharacters(in: .whitespaces).isEmpty { return displayName }
        return handle
    }
}

/// `social.grain.actor.defs#profileViewDetailed`, returned flat by `getActorProfile`.
public struct ProfileViewDetailed: Codable, Sendable, Equatable {
    public var cid: String
    public var did: String
    public var handle: String
    public var displayName: String?
    public var description: String?
    public var avatar: String?
    public var followersCount: Int?
    public var followsCount: Int?
    public var galleryCount: Int?
    public var indexedAt: String?
    public var createdAt: String?

    public init(cid: String, did: String, handle: String) {
        self.cid = cid
        self.did = did
        self.handle = handle
    }

    public var profileView: ProfileView {
        ProfileView(cid: cid, did: did, handle: handle, displayName: displayName, avatar: avatar)
    }
}

/// `com.atproto.label.defs#label`.
public struct Label: Codable, Sendable, Equatable {
    public var src: String
    public var uri: String
    public var cid: String?
    public var val: String
    public var neg: Bool?
    public var cts: String
    public init(src: String, uri: String, cid: String?, val: String, cts: String) {
        self.src = src
        self.uri = uri
        self.cid = cid
        self.val = val
        self.cts = cts
    }
}

/// `social.grain.gallery.defs#crossPostInfo`.
public struct CrossPostInfo: Codable, Sendable, Equatable {
    public var url: String
}

/// `social.grain.story.defs#viewerState`.
public struct StoryViewerState: Codable, Sendable, Equatable {
    public var fav: String?
    public var viewed: Bool?
}

/// `social.grain.story.defs#storyView`.
public struct StoryView: Codable, Sendable, Equatable {
    public var uri: String
    public var cid: String
    public var creator: ProfileView
    public var thumb: String
    public var fullsize: String
    public var aspectRatio: AspectRatio
    public var location: HThreeLocation?
    public var address: Address?
    public var locationDisplay: String?
    public var createdAt: String
    public var labels: [Label]?
    public var expired: Bool?
    public var commentCount: Int?
    public var viewer: StoryViewerState?
    public var crossPost: CrossPostInfo?

    public init(
        uri: String, cid: String, creator: ProfileView, thumb: String, fullsize: String, aspectRatio: AspectRatio,
        createdAt: String
    ) {
        self.uri = uri
        self.cid = cid
        self.creator = creator
        self.thumb = thumb
        self.fullsize = fullsize
        self.aspectRatio = aspectRatio
        self.createdAt = createdAt
    }

    /// The record key, the last path segment of the AT-URI.
    public var rkey: String { String(uri.split(separator: "/").last ?? "") }
}

/// `social.grain.unspecced.getStoryAuthors#storyAuthor`.
public struct StoryAuthor: Codable, Sendable, Equatable {
    public var profile: ProfileView
    public var storyCount: Int
    public var latestAt: String
    public init(profile: ProfileView, storyCount: Int, latestAt: String) {
        self.profile = profile
        self.storyCount = storyCount
        self.latestAt = latestAt
    }
}
