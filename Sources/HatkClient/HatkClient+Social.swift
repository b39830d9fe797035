public import ATProto
import Foundation
public import Lexicon

/// Grain's social writes on a hatk (grain.social, a self-hosted one, or the embedded backend over HTTP), always signed;
/// the social reads are the reader's (``HatkReader``). Against a hatk that lacks a method, a call
/// fails with ``HatkError/isUnsupportedMethod``; a signed-out or under-scoped session with ``HatkError/needsSignIn``.
extension HatkClient {
    // MARK: Labels and reports

    /// `dev.hatk.createReport`: `label` must be one of the reader's ``HatkReader/labelDefinitions()`` identifiers; `reason` at most 2000
    /// characters.
    public func createReport(
        _ subject: ReportSubject, label: String, reason: String?, as credentials: DPoPCredentials
    ) async throws(HatkError) -> ReportOutput {
        var input: [String: JSONValue] = ["label": .string(label), "subject": (try? JSONValue(encoding: subject)) ?? .null]
        if let reason, !reason.isEmpty { input["reason"] = .string(reason) }
        return try await transport.procedure("dev.hatk.createReport", json: .object(input), credentials: credentials)
    }

    // MARK: Favourites and comments

    /// Favourites a story: a `social.grain.favorite` record. Delete it with ``unfavorite(_:as:)``.
    public func favorite(_ story: ATURI, createdAt: String, as credentials: DPoPCredentials) async throws(HatkError) -> WriteOutput {
        let record = FavoriteRecord(subject: story.description, createdAt: createdAt)
        return try await createRecord(collection: FavoriteRecord.collection, record: Self.json(record), as: credentials)
    }

    /// Deletes a favourite (the story view's `viewer.fav`).
    public func unfavorite(_ favorite: ATURI, as credentials: DPoPCredentials) async throws(HatkError) {
        try await deleteOwn(favorite, collection: FavoriteRecord.collection, as: credentials)
    }

    /// Comments on a story: a `social.grain.comment` record (text at most 300 graphemes; `facets` as Grain writes them).
    public func comment(
        _ text: String, on story: ATURI, facets: [JSONValue]? = nil, replyTo: ATURI? = nil, createdAt: String,
        as credentials: DPoPCredentials
    ) async throws(HatkError) -> WriteOutput {
        let record = CommentRecord(
            text: text, subject: story.description, createdAt: createdAt, facets: facets?.isEmpty == true ? nil : facets,
            replyTo: replyTo?.description)
        return try await createRecord(collection: CommentRecord.collection, record: Self.json(record), as: credentials)
    }

    /// Deletes one of the viewer's comments.
    public func deleteComment(_ comment: ATURI, as credentials: DPoPCredentials) async throws(HatkError) {
        try await deleteOwn(comment, collection: CommentRecord.collection, as: credentials)
    }

    // MARK: Mutes and blocks

    /// `muteActor`: private to the viewer.
    public func muteActor(_ actor: DID, as credentials: DPoPCredentials) async throws(HatkError) {
        let _: Empty = try await transport.procedure(
            "social.grain.graph.muteActor", json: .object(["actor": .string(actor.rawValue)]), credentials: credentials)
    }

    public func unmuteActor(_ actor: DID, as credentials: DPoPCredentials) async throws(HatkError) {
        let _: Empty = try await transport.procedure(
            "social.grain.graph.unmuteActor", json: .object(["actor": .string(actor.rawValue)]), credentials: credentials)
    }

    /// Blocks an account: a `social.grain.graph.block` record. Undo with ``unblock(_:as:)`` and its URI.
    public func block(_ actor: DID, createdAt: String, as credentials: DPoPCredentials) async throws(HatkError) -> WriteOutput {
        let record = BlockRecord(subject: actor.rawValue, createdAt: createdAt)
        return try await createRecord(collection: BlockRecord.collection, record: Self.json(record), as: credentials)
    }

    /// Deletes a block record (``block(_:createdAt:as:)``'s URI, or `getBlocks`' `blockUri`).
    public func unblock(_ block: ATURI, as credentials: DPoPCredentials) async throws(HatkError) {
        try await deleteOwn(block, collection: BlockRecord.collection, as: credentials)
    }

    // MARK: Viewed state and notifications

    /// `markStoriesViewed`, in batches of at most 100 URIs (the method's limit). Only call it on an upstream whose
    /// signed-in `getStoryAuthors` carries `unviewedCount`: an unknown method may answer 200 with HTML.
    public func markStoriesViewed(_ stories: [ATURI], as credentials: DPoPCredentials) async throws(HatkError) {
        var unique: [String] = []
        for uri in stories.map(\.description) where !unique.contains(uri) { unique.append(uri) }
        var start = 0
        while start < unique.count {
            let batch = unique[start..<min(start + MarkStoriesViewed.maxStories, unique.count)]
            let _: Empty = try await transport.procedure(
                "social.grain.unspecced.markStoriesViewed", json: .object(["stories": .array(batch.map { .string($0) })]),
                credentials: credentials)
            start += MarkStoriesViewed.maxStories
        }
    }

    /// Marks notifications up to `time` (an ISO datetime, normally now) as seen, the way Grain does: the
    /// `lastSeenNotifications` preference, which `getNotifications` counts `unseenCount` from.
    public func markNotificationsSeen(at time: String, as credentials: DPoPCredentials) async throws(HatkError) {
        try await putPreference(NotificationPreference.lastSeenKey, value: .string(time), as: credentials)
    }

    /// `dev.hatk.putPreference`.
    public func putPreference(_ key: String, value: JSONValue, as credentials: DPoPCredentials) async throws(HatkError) {
        let _: Empty = try await transport.procedure(
            "dev.hatk.putPreference", json: .object(["key": .string(key), "value": value]), credentials: credentials)
    }

    // MARK: Helpers

    /// Any JSON object answer whose content is of no interest (`{}`, `{"success": true}`).
    struct Empty: Decodable {}

    static func json<T: Encodable>(_ record: T) -> JSONValue {
        // Encoding our own record types cannot fail.
        (try? JSONValue(encoding: record)) ?? .null
    }

    /// Deletes one of the viewer's records after checking it is of the expected collection, so a stray URI cannot
    /// delete a story when a favourite was meant.
    func deleteOwn(_ uri: ATURI, collection: String, as credentials: DPoPCredentials) async throws(HatkError) {
        guard uri.collection == collection else {
            throw HatkError(
                kind: .http(status: 400, error: "not a \(collection) record"), endpoint: "dev.hatk.deleteRecord", detail: uri.description)
        }
        try await deleteRecord(collection: collection, rkey: uri.rkey, as: credentials)
    }
}
