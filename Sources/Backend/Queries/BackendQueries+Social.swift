public import ATProto
import Foundation
public import Lexicon

/// Comments, notifications, mutes, blocks and preferences, as Grain's and hatk's methods answer them.
extension BackendQueries {
    /// `getCommentThread`: comments on a story, oldest first; `limit` is clamped to 1…100 (default 20). Authors
    /// blocked either way are left out; muted ones come with `muted: true`.
    public func commentThread(
        subject: ATURI, limit: Int = 20, cursor: String? = nil, viewer: DID?, imageBase: String
    ) throws
        -> CommentThreadOutput
    {
        let limit = min(max(limit, 1), 100)
        let (rows, total) = try store.social.comments(on: subject.description, viewer: viewer, limit: limit, after: try Self.checked(cursor))
        let page = Array(rows.prefix(limit))
        let views = ViewBuilder(imageBase: imageBase)
        return CommentThreadOutput(
            comments: page.map(views.commentView), cursor: rows.count > limit ? page.last?.record.createdAt : nil, totalCount: total)
    }

    /// `getNotifications`: favourites and comments others made on the viewer's stories, newest first, with
    /// `unseenCount` counted from the `lastSeenNotifications` preference. `countOnly` skips the list.
    public func notifications(
        viewer: DID, limit: Int = 20, cursor: String? = nil, countOnly: Bool = false, imageBase: String
    ) throws
        -> NotificationsOutput
    {
        let lastSeen = try store.privateState.preference(NotificationPreference.lastSeenKey, of: viewer)?.stringValue
        let unseen = try store.social.notificationCount(for: viewer, after: lastSeen)
        if countOnly { return NotificationsOutput(notifications: [], unseenCount: unseen) }
        let limit = min(max(limit, 1), 100)
        let rows = try store.social.notifications(for: viewer, limit: limit, before: try Self.checked(cursor))
        let page = Array(rows.prefix(limit))
        let views = ViewBuilder(imageBase: imageBase)
        return NotificationsOutput(
            notifications: page.map(views.notification), cursor: rows.count > limit ? page.last?.record.createdAt : nil,
            unseenCount: unseen)
    }

    /// `getMutes`: whom the viewer muted, newest first.
    public func mutes(viewer: DID, limit: Int = 50, cursor: String? = nil, imageBase: String) throws -> GraphListOutput {
        let limit = min(max(limit, 1), 100)
        let rows = try store.privateState.mutes(of: viewer, limit: limit, before: try Self.checked(cursor))
        return graphList(rows, limit: limit, imageBase: imageBase)
    }

    /// `getBlocks`: whom the viewer blocks, newest first, each with its block record's URI.
    public func blocks(viewer: DID, limit: Int = 50, cursor: String? = nil, imageBase: String) throws -> GraphListOutput {
        let limit = min(max(limit, 1), 100)
        let rows = try store.privateState.blocks(of: viewer, limit: limit, before: try Self.checked(cursor))
        return graphList(rows, limit: limit, imageBase: imageBase)
    }

    func graphList(_ rows: [PrivateStateStore.GraphRow], limit: Int, imageBase: String) -> GraphListOutput {
        let page = Array(rows.prefix(limit))
        let views = ViewBuilder(imageBase: imageBase)
        return GraphListOutput(items: page.map(views.graphItem), cursor: rows.count > limit ? page.last?.createdAt : nil)
    }

    /// `dev.hatk.getPreferences`: every preference of the viewer, as `{"preferences": {key: value}}`.
    public func preferences(viewer: DID) throws -> PreferencesOutput {
        PreferencesOutput(preferences: try store.privateState.preferences(of: viewer))
    }
}
