/// Where a story's description is kept: the embedded household's backend (Grain's record has no place for it, so a
/// remote hatk keeps none and the create form offers no field there).
public protocol StoryDescribing: Sendable {
    /// The longest description kept, in characters: the form checks it before anything is posted, so that a
    /// refusal loses nothing.
    var maxLength: Int { get }

    /// Keeps `text` as what the photo of the story at `uri` shows, in the words of `author` (who posted it);
    /// `caption` shows it under the photo too. An empty text removes it.
    func describe(story uri: String, by author: String, text: String, caption: Bool) throws
}
