/// Where a story's description is kept: the embedded household's backend (Grain's record has no place for it, so a
/// remote hatk keeps none and the create form offers no field there).
public protocol StoryDescribing: Sendable {
    /// Keeps `text` as what the photo of the story at `uri` shows, in the words of `author` (who posted it);
    /// `caption` shows it under the photo too. An empty text removes it.
    func describe(story uri: String, by author: String, text: String, caption: Bool) throws
}

/// The description field's rules, checked before anything is posted so that a refusal loses nothing.
enum StoryDescription {
    /// Characters kept (the backend's own limit).
    static let maxLength = 1_000
}
