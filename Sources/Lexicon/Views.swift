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
    /// How the requesting account relates to this one; absent for anonymous requests.
    public var viewer: ProfileViewerState?

    public init(cid: String, did: String, handle: String) {
        self.cid = cid
        self.did = did
        self.handle = handle
    }

    public var profileView: ProfileView {
        ProfileView(cid: cid, did: did, handle: handle, displayName: displayName, avatar: avatar)
    }
}

/// `social.grain.actor.defs#viewerState`: the requesting account's relationship with a profile's account.
public struct ProfileViewerState: Codable, Sendable, Equatable {
    /// The viewer's block record of this account, if any (delete it to unblock).
    public var blocking: String?
    /// This account blocks the viewer.
    public var blockedBy: Bool?
    /// The viewer muted this account.
    public var muted: Bool?

    public init(blocking: String? = nil, blockedBy: Bool? = nil, muted: Bool? = nil) {
        self.blocking = blocking
        self.blockedBy = blockedBy
        self.muted = muted
    }

    public var isEmpty: Bool { blocking == nil && blockedBy == nil && muted == nil }
}

/// `com.atproto.label.defs#label`.
public struct Label: Codable, Sendable, Equatable {
    public var src: String
    public var uri: String
    public var cid: String?
    public var val: String
    public var neg: Bool?
    public var cts: String
    public init(src: String, uri: String, cid: String?, val: String, cts: String, neg: Bool? = nil) {
        self.src = src
        self.uri = uri
        self.cid = cid
        self.val = val
        self.cts = cts
        self.neg = neg
    }
}

/// `social.grain.gallery.defs#crossPostInfo`.
public struct CrossPostInfo: Codable, Sendable, Equatable {
    public var url: String
}

/// `social.grain.story.defs#viewerState`: only present when it has something to say.
public struct StoryViewerState: Codable, Sendable, Equatable {
    /// The viewer's favourite record of this story (delete it to unfavourite).
    public var fav: String?
    /// The viewer has watched this story (the viewed-state extension; only present when true).
    public var viewed: Bool?

    public init(fav: String? = nil, viewed: Bool? = nil) {
        self.fav = fav
        self.viewed = viewed
    }
}

/// A story's clip: an H.264/AAC MP4 of at most 15 seconds, served with byte ranges.
public struct StoryVideo: Codable, Sendable, Equatable {
    /// The MP4's address (`/img/feed_fullsize/<did>/<cid>`).
    public var url: String
    /// The clip's length in milliseconds, as the server measured it when it stored the blob.
    public var durationMs: Int

    public init(url: String, durationMs: Int) {
        self.url = url
        self.durationMs = durationMs
    }
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
    /// What the photo shows, in its author's words: the embedded household's extension (Grain's record has no place
    /// for it); the alt text wherever the photo is shown.
    public var photoDescription: String?
    /// Whether the author shows the description as a caption under the photo too (set only when true).
    public var showsCaption: Bool?
    /// The clip, when the story's media is a video: the embedded household's extension (Grain's clients show
    /// stories as images). `thumb` and `fullsize` are then JPEG posters of its first frame, so everything that shows
    /// a story as a picture keeps working.
    public var video: StoryVideo?

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
    /// Live stories the viewer has not watched (viewed-state extension; signed-in requests only).
    public var unviewedCount: Int?
    /// `createdAt` of the newest live story the viewer watched; caught up when it equals `latestAt`.
    public var lastViewedAt: String?

    public init(profile: ProfileView, storyCount: Int, latestAt: String, unviewedCount: Int? = nil, lastViewedAt: String? = nil) {
        self.profile = profile
        self.storyCount = storyCount
        self.latestAt = latestAt
        self.unviewedCount = unviewedCount
        self.lastViewedAt = lastViewedAt
    }
}
