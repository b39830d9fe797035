import ATProto
import HatkClient
import Lexicon
import Readers

/// Every live story of a list of authors, read at once: what the home page's "Today" grid and the kiosk both show.
/// One `getStories` per author, in parallel (a remote hatk's answers come from the client's short read cache).
enum ActiveStories {
    /// Each author's stories (oldest first, as `getStories` answers), in the order of `authors`.
    static func of(_ authors: [StoryAuthor], reader: any StoryReading) async throws -> [[StoryView]] {
        try await withThrowingTaskGroup(of: (Int, [StoryView]).self) { group in
            for (i, author) in authors.enumerated() {
                guard let did = DID.parse(author.profile.did) else { continue }
                group.addTask { (i, try await reader.stories(of: did)) }
            }
            var result = [[StoryView]](repeating: [], count: authors.count)
            for try await (i, stories) in group { result[i] = stories }
            return result
        }
    }
}
