import ATProto
import App
import Backend

/// The embedded household's story descriptions, kept in the backend's own table (Grain's record has no place for
/// them) and served back in its story views.
struct EmbeddedDescriptions: StoryDescribing {
    let store: BackendStore

    var maxLength: Int { BackendStore.maxDescription }

    func describe(story uri: String, by author: String, text: String, caption: Bool) throws {
        try store.stories.describeStory(try ATURI(uri), by: try DID(author), text: text, caption: caption)
    }
}
