import ATProto
import Foundation
import Lexicon
import Outbound

extension HatkClient {
    /// The same reads, signed as a signed-in person (`Authorization: DPoP` with a proof naming the query), so that
    /// hatk answers with their viewer state: favourites, mutes and blocks, what they have viewed. Their answers
    /// are never cached: they differ per person.
    /// - Parameter credentials: fetched once per read, so a token refreshed meanwhile is picked up.
    public func reading(as credentials: @escaping @Sendable () async throws -> DPoPCredentials) -> any StoryReading {
        ViewerReads(client: self, credentials: credentials)
    }
}

/// `StoryReading` as one signed-in person.
struct ViewerReads: XRPCReads {
    let client: HatkClient
    let credentials: @Sendable () async throws -> DPoPCredentials

    func read<Output: Decodable>(_ nsid: String, _ parameters: [(String, String)]) async throws(HatkError) -> Output {
        let current: DPoPCredentials
        do { current = try await credentials() } catch let error as HatkError { throw error } catch {
            // The session could not produce credentials (it ended): read as anyone would.
            return try await client.query(nsid, parameters)
        }
        return try await client.query(nsid, parameters, as: current)
    }
}
