public import ATProto
import Foundation
public import Lexicon
public import Readers

/// The story and social reads (``StoryReading``) over XRPC, as anyone or as one signed-in person, on the client's
/// connections and read cache. hatk's errors become ``ReadError`` here, at the boundary: the front never sees an
/// HTTP client's error for a read.
public struct HatkReader: StoryReading {
    let transport: HatkTransport
    /// The signed-in person's credentials, fetched once per read; nil reads as anyone (and may be cached).
    let credentials: (@Sendable () async throws -> DPoPCredentials)?

    /// One query, its failure as a ``ReadError``.
    func read<Output: Decodable>(_ nsid: String, _ parameters: [(String, String)]) async throws(ReadError) -> Output {
        do { return try await query(nsid, parameters) } catch { throw ReadError(error) }
    }

    /// One query, anonymous or signed as the viewer.
    func query<Output: Decodable>(_ nsid: String, _ parameters: [(String, String)]) async throws(HatkError) -> Output {
        guard let credentials else { return try await transport.query(nsid, parameters) }
        let current: DPoPCredentials
        do { current = try await credentials() } catch let error as HatkError { throw error } catch {
            // The session could not produce credentials (it ended): read as anyone would.
            return try await transport.query(nsid, parameters)
        }
        return try await transport.query(nsid, parameters, as: current)
    }

    public func storyAuthors() async throws(ReadError) -> [StoryAuthor] {
        let output: StoryAuthorsOutput = try await read("social.grain.unspecced.getStoryAuthors", [])
        return output.authors
    }

    public func stories(of actor: DID) async throws(ReadError) -> [StoryView] {
        let output: StoriesOutput = try await read("social.grain.unspecced.getStories", [("actor", actor.rawValue)])
        return output.stories
    }

    public func story(_ uri: ATURI) async throws(ReadError) -> StoryView? {
        let output: StoryOutput = try await read("social.grain.unspecced.getStory", [("story", uri.description)])
        return output.story
    }

    public func storyArchive(of actor: DID, limit: Int, cursor: String?) async throws(ReadError) -> StoriesOutput {
        var parameters = [("actor", actor.rawValue), ("limit", String(limit))]
        if let cursor { parameters.append(("cursor", cursor)) }
        return try await read("social.grain.unspecced.getStoryArchive", parameters)
    }

    public func profile(_ actor: String) async throws(ReadError) -> ProfileViewDetailed? {
        do {
            let output: ProfileViewDetailed = try await read("social.grain.unspecced.getActorProfile", [("actor", actor)])
            return output
        } catch let error {
            // hatk answers an unknown actor with a 400 "Actor not found"; an unparsable one likewise.
            if let status = error.status, status == 400 || status == 404 { return nil }
            throw error
        }
    }
}

extension ReadError {
    /// A hatk call's failure, sorted as the front tells reads apart: statuses and error names by hatk's shapes
    /// (``ReadError/init(status:error:endpoint:message:)``), a missing method as unsupported, the rest as a timeout
    /// or an unavailable upstream.
    init(_ error: HatkError) {
        switch error.kind {
        case .http(let status, let name):
            self.init(status: status, error: name, endpoint: error.endpoint, message: error.detail)
        case .timeout:
            self.init(.timeout, endpoint: error.endpoint, detail: error.detail)
        case .unreachable:
            self.init(.unavailable, endpoint: error.endpoint, detail: "could not be reached: \(error.detail)")
        case .malformed:
            self.init(.unavailable, endpoint: error.endpoint, detail: "sent an answer we could not read: \(error.detail)")
        case .notJSON(let status, let contentType):
            self.init(.unsupported, endpoint: error.endpoint, detail: "answered \(status) with \(contentType), not JSON")
        }
    }
}
