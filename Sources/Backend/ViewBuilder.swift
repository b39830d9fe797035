import ATProto
import Foundation
import Lexicon

/// Turns stored rows into the view shapes of Grain's lexicons, with image URLs under `imageBase`.
struct ViewBuilder: Sendable {
    /// The origin image URLs start with (`https://stories.example`), or `""` for relative `/img/…` URLs.
    let imageBase: String

    init(imageBase: String) {
        self.imageBase = imageBase.hasSuffix("/") ? String(imageBase.dropLast()) : imageBase
    }

    func imageURL(_ preset: BlobStore.Preset, did: String, cid: String) -> String {
        "\(imageBase)/img/\(preset.rawValue)/\(did)/\(cid)"
    }

    func profileView(did: String, handle: String?, profile: StoryStore.StoredProfile?) -> ProfileView {
        let handle = handle ?? ""
        return ProfileView(
            cid: profile?.cid ?? "", did: did, handle: handle.isEmpty ? did : handle,
            displayName: profile?.record.displayName,
            avatar: profile?.record.avatar.map { imageURL(.avatar, did: did, cid: $0.cid) })
    }

    /// A storyView. `full` adds what getStories and getStoryArchive set and getStory does not (locationDisplay,
    /// expired, commentCount, the viewer's favourite); the seen mark is on both, as in Grain's d703c32.
    func storyView(_ row: StoryStore.StoryRow, creator: ProfileView, now: UTCTime, full: Bool) -> StoryView? {
        let stored = row.record
        guard let mediaCID = stored.value["media"]?["ref"]?["$link"]?.stringValue else { return nil }
        let record = try? stored.value.decode(as: StoryRecord.self)
        // A clip is pictured by its poster wherever a story is shown as a picture; the MP4 is the view's `video`.
        let isClip = stored.value["media"]?["mimeType"]?.stringValue?.hasPrefix("video/") ?? false
        var view = StoryView(
            uri: stored.uri.description, cid: stored.cid, creator: creator,
            thumb: imageURL(.thumbnail, did: stored.did, cid: mediaCID),
            fullsize: imageURL(isClip ? .poster : .fullsize, did: stored.did, cid: mediaCID),
            aspectRatio: record?.aspectRatio ?? AspectRatio(width: 4, height: 3),
            createdAt: stored.createdAt)
        if isClip {
            view.video = StoryVideo(url: imageURL(.fullsize, did: stored.did, cid: mediaCID), durationMs: row.clipMilliseconds ?? 0)
        }
        view.location = record?.location
        view.address = record?.address
        let labels = stored.selfLabels
        view.labels = labels.isEmpty ? nil : labels
        view.photoDescription = row.description
        view.showsCaption = row.description != nil && row.caption ? true : nil
        var viewer = StoryViewerState(viewed: row.viewed ? true : nil)
        if full {
            if view.location != nil {
                view.locationDisplay = LocationDisplay.format(location: view.location, address: view.address)
            }
            let created = UTCTime(iso8601: stored.createdAt) ?? now
            view.expired = StoryRecord.isExpired(createdAt: created, now: now)
            view.commentCount = row.commentCount
            viewer.fav = row.favorite
        }
        view.viewer = viewer.fav == nil && viewer.viewed == nil ? nil : viewer
        return view
    }

    func commentView(_ row: SocialStore.CommentRow) -> CommentView {
        let stored = row.record
        let record = try? stored.value.decode(as: CommentRecord.self)
        var view = CommentView(
            uri: stored.uri.description, cid: stored.cid,
            author: profileView(did: stored.did, handle: stored.handle, profile: row.authorProfile),
            text: record?.text ?? "", createdAt: stored.createdAt)
        view.facets = record?.facets
        view.replyTo = record?.replyTo
        view.favCount = row.favCount
        view.viewer = row.viewerFavorite.map { CommentViewerState(fav: $0) }
        view.muted = row.muted ? true : nil
        return view
    }

    func notification(_ row: SocialStore.NotificationRow) -> NotificationItem {
        let stored = row.record
        let isComment = row.collection == CommentRecord.collection
        var item = NotificationItem(
            uri: stored.uri.description,
            reason: isComment ? NotificationReason.storyComment : NotificationReason.storyFavorite,
            createdAt: stored.createdAt,
            author: profileView(did: stored.did, handle: stored.handle, profile: row.authorProfile))
        item.storyUri = row.story
        if let media = row.storyMedia, let owner = try? ATURI(row.story) {
            // Grain uses the avatar preset: a small square.
            item.storyThumb = imageURL(.avatar, did: owner.authority, cid: media)
        }
        if isComment, let text = stored.value["text"]?.stringValue, !text.isEmpty { item.commentText = text }
        return item
    }

    func graphItem(_ row: PrivateStateStore.GraphRow) -> GraphItem {
        GraphItem(
            did: row.did, handle: (row.handle?.isEmpty ?? true) ? row.did : row.handle, displayName: row.profile?.record.displayName,
            avatar: row.profile?.record.avatar.map { imageURL(.avatar, did: row.did, cid: $0.cid) }, blockUri: row.blockURI)
    }
}
