import HatkClient
import Lexicon

/// `/`: the story strip.
enum HomePage {
    struct Model: Encodable, Equatable {
        var createHref: String
        var authors: [AuthorTile]
    }

    static func query(_ reader: any StoryReading) async throws(HatkError) -> Model {
        let authors = try await reader.storyAuthors()
        return Model(
            createHref: SiteURL.create.path,
            authors: authors.map {
                AuthorTile(profile: $0.profile, storyCount: $0.storyCount, href: SiteURL.stories(actor: $0.profile.did).path)
            })
    }
}
