import ATProto
import Lexicon

/// `StoryReading` in terms of one XRPC query function, so the anonymous client and the signed-in view of it
/// share every read and differ only in how a query is sent.
protocol XRPCReads: StoryReading {
    func read<Output: Decodable>(_ nsid: String, _ parameters: [(String, String)]) async throws(HatkError) -> Output
}

extension XRPCReads {
    public func storyAuthors() async throws(HatkError) -> [StoryAuthor] {
        let output: StoryAuthorsOutput = try await read("social.grain.unspecced.getStoryAuthors", [])
        return output.authors
    }

    public func stories(of actor: DID) async throws(HatkError) -> [StoryView] {
        let output: StoriesOutput = try await read("social.grain.unspecced.getStories", [("actor", actor.rawValue)])
        return output.stories
    }

    public func story(_ uri: ATURI) async throws(HatkError) -> StoryView? {
        let output: StoryOutput = try await read("social.grain.unspecced.getStory", [("story", uri.description)])
        return output.story
    }

    public func storyArchive(of actor: DID, limit: Int, cursor: String?) async throws(HatkError) -> StoriesOutput {
        var parameters = [("actor", actor.rawValue), ("limit", String(limit))]
        if let cursor { parameters.append(("cursor", cursor)) }
        return try await read("social.grain.unspecced.getStoryArchive", parameters)
    }

    public func profile(_ actor: String) async throws(HatkError) -> ProfileViewDetailed? {
        do {
            let output: ProfileViewDetailed = try await read("social.grain.unspecced.getActorProfile", [("actor", actor)])
            return output
        } catch let error {
            // hatk answers an unknown actor with a 400 "Actor not found"; an unparsable one likewise.
            if case .http(let status, _) = error.kind, status == 400 || status == 404 { return nil }
            throw error
        }
    }
}
