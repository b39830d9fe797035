public import ATProto
import Foundation
import Lexicon
import Storage

/// What a story's photo shows, in its author's words (alt text, and a caption when they choose).
extension StoryStore {
    /// The longest description kept, in characters (Bluesky's alt text allows 2,000; a story's photo needs less).
    public static let maxDescription = 1_000

    /// Keeps `text` as what the photo of the story at `uri` shows, in its author's words; `caption` shows it under
    /// the photo too. Only the story's author may describe it; an empty text removes the description.
    /// - Throws: `BackendError` when the story is not `author`'s or the text is too long.
    public func describeStory(_ uri: ATURI, by author: DID, text: String, caption: Bool) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= Self.maxDescription else {
            throw BackendError.invalidRequest("A description may be at most \(Self.maxDescription) characters long.")
        }
        try database.write { connection in
            guard uri.collection == StoryRecord.collection,
                try connection.queryOne(
                    "SELECT 1 AS found FROM records WHERE uri = ? AND did = ?", [uri.description, author.rawValue]) != nil
            else { throw BackendError.invalidRequest("Only a story's author may describe it.") }
            if trimmed.isEmpty {
                try connection.execute("DELETE FROM story_descriptions WHERE uri = ?", [uri.description])
            } else {
                try connection.execute(
                    """
                    INSERT INTO story_descriptions (uri, did, text, caption) VALUES (?, ?, ?, ?)
                    ON CONFLICT (uri) DO UPDATE SET text = excluded.text, caption = excluded.caption
                    """, [uri.description, author.rawValue, trimmed, caption ? 1 : 0])
            }
        }
    }
}
