public import ATProto
public import Lexicon
public import Readers

extension HatkReader {
    public func commentThread(on story: ATURI, limit: Int, cursor: String?) async throws(ReadError) -> CommentThreadOutput {
        var parameters = [("subject", story.description), ("limit", String(limit))]
        if let cursor { parameters.append(("cursor", cursor)) }
        return try await read("social.grain.unspecced.getCommentThread", parameters)
    }

    public func notifications(limit: Int, cursor: String?, countOnly: Bool) async throws(ReadError) -> NotificationsOutput {
        var parameters = HatkTransport.page(limit, cursor)
        if countOnly { parameters.append(("countOnly", "true")) }
        return try await read("social.grain.unspecced.getNotifications", parameters)
    }

    public func mutes(limit: Int, cursor: String?) async throws(ReadError) -> GraphListOutput {
        try await read("social.grain.unspecced.getMutes", HatkTransport.page(limit, cursor))
    }

    public func blocks(limit: Int, cursor: String?) async throws(ReadError) -> GraphListOutput {
        try await read("social.grain.unspecced.getBlocks", HatkTransport.page(limit, cursor))
    }

    /// Pages through `getMutes` and `getBlocks` (at most ``maxRelationshipPages`` pages of 100 each). hatk has no bulk
    /// "blocked by" read, so `blockedBy` stays empty: its `getStoryAuthors` leaves those authors out already.
    public func relationships() async throws(ReadError) -> ViewerRelationships {
        var relationships = ViewerRelationships()
        var cursor: String?
        for _ in 0..<Self.maxRelationshipPages {
            let page = try await mutes(limit: 100, cursor: cursor)
            relationships.muted.formUnion(page.items.map(\.did))
            guard let next = page.cursor, next != cursor, !page.items.isEmpty else { break }
            cursor = next
        }
        cursor = nil
        for _ in 0..<Self.maxRelationshipPages {
            let page = try await blocks(limit: 100, cursor: cursor)
            for item in page.items where relationships.blocking[item.did] == nil {
                relationships.blocking[item.did] = item.blockUri ?? ""
            }
            guard let next = page.cursor, next != cursor, !page.items.isEmpty else { break }
            cursor = next
        }
        return relationships
    }

    public func labelDefinitions() async throws(ReadError) -> [LabelDefinition] {
        let output: DescribeLabelsOutput = try await read("dev.hatk.describeLabels", [])
        return output.definitions ?? []
    }
}

extension HatkReader {
    /// How many pages of mutes and of blocks are read for filtering (100 each).
    static var maxRelationshipPages: Int { 5 }
}
