import ATProto
import HTTPServer
import Lexicon

/// The household's rules for comments and favourites, kept by the backend itself: the front closes comments on
/// expired stories and hides blocked authors, but any member's token can call `createRecord` directly.
extension WriteHandler {
    /// Refuses a comment on a story that is not there (or is hidden), has expired, or whose author and the commenter
    /// block each other, and a favourite between two accounts that block each other. Other collections pass.
    func checkSocialRules(_ record: JSONValue, collection: String, did: DID) throws {
        switch collection {
        case CommentRecord.collection: try checkComment(record, did: did)
        case FavoriteRecord.collection: try checkFavorite(record, did: did)
        default: return
        }
    }

    private func checkComment(_ record: JSONValue, did: DID) throws {
        let subject = record["subject"]?.stringValue ?? ""
        guard let uri = try? ATURI(subject), uri.collection == StoryRecord.collection,
            let story = try records.record(uri), !story.isHidden
        else {
            throw Self.refusal("There is no story \(subject.prefix(200)) on this server to comment on")
        }
        // An unreadable createdAt counts as expired: the story could not be shown as live either.
        let created = UTCTime(iso8601: story.createdAt)
        if created.map({ StoryRecord.isExpired(createdAt: $0, now: clock()) }) ?? true {
            throw Self.refusal("Comments are closed on this story: it expired 24 hours after it was posted")
        }
        if try social.isBlocked(between: story.did, and: did.rawValue) {
            throw Self.refusal("You cannot comment on this story: you and its author block each other")
        }
    }

    private func checkFavorite(_ record: JSONValue, did: DID) throws {
        // A favourite's subject may be a story or a comment; one that is not here has no author to ask.
        guard let subject = record["subject"]?.stringValue, let uri = try? ATURI(subject),
            let target = try records.record(uri)
        else { return }
        if try social.isBlocked(between: target.did, and: did.rawValue) {
            throw Self.refusal("You cannot favourite this: you and its author block each other")
        }
    }

    /// hatk's 400 for input its handler refuses, with a sentence for people.
    private static func refusal(_ message: String) -> BackendError {
        BackendError(.invalidRequest, status: .badRequest, error: "InvalidRequest", message: message)
    }
}
