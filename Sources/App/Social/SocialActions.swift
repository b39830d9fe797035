import ATProto
import Foundation
import HatkClient
import Lexicon

/// What a signed-in person does to others' stories and accounts, written through the writer with their credentials:
/// favourites, comments, reports, mutes and blocks, and "notifications seen". Knows nothing of HTTP requests or
/// pages; after each write it forgets what the write made stale (cached pages, the person's relationships).
struct SocialActions: Sendable {
    let writer: HatkClient
    let pageCache: PageCache
    let visibility: Visibility
    /// The story's author has something new in their activity: their count is asked again.
    let activity: ActivityCounts

    /// A comment the lexicon would refuse, in words for the form.
    struct CommentRefusal: Error, Equatable {
        let message: String
    }

    /// Favourites `story`; returns the favourite's URI.
    func favorite(_ story: ATURI, now: UTCTime, as credentials: DPoPCredentials) async throws -> String {
        defer { changed(story) }
        return try await writer.favorite(story, createdAt: now.iso8601, as: credentials).uri
    }

    /// Takes a favourite back.
    func unfavorite(_ favorite: ATURI, as credentials: DPoPCredentials) async throws {
        defer { pageCache.removeAll() }
        try await writer.unfavorite(favorite, as: credentials)
    }

    /// The mentions one comment may look up; a comment naming more people links the first ones.
    static let maxMentionLookups = 10

    /// Comments on `story`, with the facets Grain writes (links, mentions, tags); returns the comment's URI.
    /// - Parameter resolve: the DID of a mentioned handle, nil when nobody has it (the mention stays plain text).
    func comment(
        _ raw: String, on story: ATURI, now: UTCTime, resolve: (String) async -> String?, as credentials: DPoPCredentials
    ) async throws -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw CommentRefusal(message: "Write something first.") }
        guard text.count <= CommentRecord.maxGraphemes, text.utf8.count <= CommentRecord.maxBytes else {
            throw CommentRefusal(message: "A comment can be at most \(CommentRecord.maxGraphemes) characters long.")
        }
        var facets: [JSONValue] = []
        var lookups = 0
        for facet in RichText.facets(in: text) {
            switch facet.feature {
            case .mention(let handle):
                // Each mention is a profile look-up: past the cap, a mention stays plain text.
                guard lookups < Self.maxMentionLookups else { continue }
                lookups += 1
                guard let did = await resolve(handle) else { continue }
                facets.append(RichText.json(facet, mentionDID: did))
            case .link, .tag:
                facets.append(RichText.json(facet, mentionDID: nil))
            }
        }
        defer { changed(story) }
        return try await writer.comment(text, on: story, facets: facets, createdAt: now.iso8601, as: credentials).uri
    }

    func deleteComment(_ comment: ATURI, as credentials: DPoPCredentials) async throws {
        defer { pageCache.removeAll() }
        try await writer.deleteComment(comment, as: credentials)
    }

    func report(
        _ subject: ReportSubject, label: String, reason: String, as credentials: DPoPCredentials
    ) async throws {
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await writer.createReport(subject, label: label, reason: trimmed.isEmpty ? nil : trimmed, as: credentials)
    }

    func mute(_ actor: DID, undo: Bool, viewer: String, as credentials: DPoPCredentials) async throws {
        defer { changedRelationships(of: viewer) }
        if undo { try await writer.unmuteActor(actor, as: credentials) } else { try await writer.muteActor(actor, as: credentials) }
    }

    /// Blocks `actor`, or with `undo` deletes the block record `existing`.
    func block(_ actor: DID, undo existing: ATURI?, viewer: String, now: UTCTime, as credentials: DPoPCredentials) async throws {
        defer { changedRelationships(of: viewer) }
        if let existing {
            try await writer.unblock(existing, as: credentials)
        } else {
            _ = try await writer.block(actor, createdAt: now.iso8601, as: credentials)
        }
    }

    /// Marks the person's activity seen up to `now`: the header's count on their cached pages goes with it.
    func markNotificationsSeen(now: UTCTime, as credentials: DPoPCredentials) async throws {
        defer { pageCache.removeAll() }
        try await writer.markNotificationsSeen(at: now.iso8601, as: credentials)
    }

    /// After a favourite or comment on `story`: pages change, and so does its author's activity.
    func changed(_ story: ATURI) {
        pageCache.removeAll()
        activity.forget(story.authority)
    }

    func changedRelationships(of viewer: String) {
        visibility.forget(viewer)
        pageCache.removeAll()
    }
}
