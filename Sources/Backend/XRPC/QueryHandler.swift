import ATProto
import HTTPServer
import Lexicon

/// `GET /xrpc/<nsid>`: parse the parameters hatk's way, call ``BackendQueries``, encode.
final class QueryHandler: Sendable {
    let queries: BackendQueries
    /// Who a request acts for; nil makes every request anonymous.
    let authenticator: (any ViewerAuthenticator)?
    /// Every XRPC query needs a viewer the authenticator admits (a household whose stories are its own); false lets
    /// anyone read, as hatk does.
    let privateReads: Bool
    /// The origin a request was sent to, for absolute image URLs in views; nil gives relative `/img/…` URLs.
    let origin: @Sendable (Request) -> String?
    /// Answers `getBlob`.
    let files: BlobHandler

    init(
        queries: BackendQueries, authenticator: (any ViewerAuthenticator)?, privateReads: Bool,
        origin: @escaping @Sendable (Request) -> String?, files: BlobHandler
    ) {
        self.queries = queries
        self.authenticator = authenticator
        self.privateReads = privateReads
        self.origin = origin
        self.files = files
    }

    /// The image base of a request's views: the origin it was sent to, without a trailing slash.
    func imageBase(for request: Request) -> String {
        let base = origin(request) ?? ""
        return base.hasSuffix("/") ? String(base.dropLast()) : base
    }

    func query(_ request: Request) async throws -> Response {
        let nsid = try request.parameters.require("nsid")
        var response = await XRPC.answer(nsid) {
            // One look at the credentials: a DPoP proof is good once (its jti is recorded).
            let viewer = try await self.readViewer(request)
            if self.privateReads, viewer == nil { throw BackendError.authenticationRequired }
            return try await self.runQuery(nsid, request, viewer: viewer)
        }
        if let nonce = authenticator?.currentDPoPNonce() { response.headers["DPoP-Nonce"] = nonce }
        return response
    }

    /// The viewer of a read. Like hatk, a broken credential reads anonymously; but when nonces are required and the
    /// proof lacks a fresh one, the client is asked to retry with it (so a signed-in read is not silently anonymous).
    func readViewer(_ request: Request) async throws(BackendError) -> DID? {
        if let viewer = await authenticator?.viewer(for: request) { return viewer.did }
        if request.headers["Authorization"] != nil, authenticator?.dpopChallenge(for: request) != nil {
            throw BackendError.authenticationRequired
        }
        return nil
    }

    private func runQuery(_ nsid: String, _ request: Request, viewer: DID?) async throws -> Response {
        let base = imageBase(for: request)
        switch nsid {
        case "social.grain.unspecced.getStoryAuthors":
            return XRPC.json(try queries.storyAuthors(viewer: viewer, imageBase: base))
        case "social.grain.unspecced.getStories":
            // Like hatk: without an actor the list is empty; one that is not a DID fails the lexicon's `format: did`.
            guard let raw = request.query("actor") else { return XRPC.json(StoriesOutput(stories: [])) }
            guard let actor = DID.parse(raw) else { throw BackendError.invalidRequest("InvalidRequest: actor must be a valid did") }
            return XRPC.json(try queries.stories(of: actor, viewer: viewer, imageBase: base))
        case "social.grain.unspecced.getStory":
            let uri = try Self.atURI(request, "story")
            return XRPC.json(try queries.story(uri, viewer: viewer, imageBase: base))
        case "social.grain.unspecced.getStoryArchive":
            let actor = try Self.required(request, "actor")
            let limit = try Self.integer(request, "limit") ?? 50
            guard let did = DID.parse(actor) else { return XRPC.json(StoriesOutput(stories: [])) }
            return XRPC.json(
                try queries.storyArchive(
                    of: did, limit: limit, cursor: request.query("cursor"), viewer: viewer, imageBase: base))
        case "social.grain.unspecced.getActorProfile":
            return XRPC.json(
                try queries.actorProfile(try Self.required(request, "actor"), viewer: viewer, imageBase: base))
        case "social.grain.unspecced.getCommentThread":
            let subject = try Self.atURI(request, "subject")
            return XRPC.json(
                try queries.commentThread(
                    subject: subject, limit: try Self.integer(request, "limit") ?? 20, cursor: request.query("cursor"),
                    viewer: viewer, imageBase: base))
        case "social.grain.unspecced.getNotifications":
            guard let viewer else { throw BackendError.authenticationRequiredInvalid }
            let countOnly = ["true", "1"].contains(request.query("countOnly")?.lowercased() ?? "")
            return XRPC.json(
                try queries.notifications(
                    viewer: viewer, limit: try Self.integer(request, "limit") ?? 20, cursor: request.query("cursor"),
                    countOnly: countOnly, imageBase: base))
        case "social.grain.unspecced.getMutes", "social.grain.unspecced.getBlocks":
            guard let viewer else { throw BackendError.authenticationRequiredInvalid }
            let limit = try Self.integer(request, "limit") ?? 50
            let cursor = request.query("cursor")
            return XRPC.json(
                nsid.hasSuffix("getMutes")
                    ? try queries.mutes(viewer: viewer, limit: limit, cursor: cursor, imageBase: base)
                    : try queries.blocks(viewer: viewer, limit: limit, cursor: cursor, imageBase: base))
        case "dev.hatk.getPreferences":
            guard let viewer else { throw BackendError.authenticationRequired }
            return XRPC.json(try queries.preferences(viewer: viewer))
        case "dev.hatk.describeLabels":
            return XRPC.json(queries.describeLabels())
        case "dev.hatk.getRecord":
            guard let raw = request.query("uri") else { throw BackendError.invalidRequest("Missing required parameter: uri") }
            guard let uri = try? ATURI(raw) else { throw BackendError.invalidRequest("Invalid AT-URI: \(raw.prefix(200))") }
            return XRPC.json(try queries.record(uri))
        case "com.atproto.sync.getBlob":
            return try files.getBlob(request)
        default:
            return XRPC.error(.notFound, "Method not found: \(nsid.prefix(200))")
        }
    }

    static func required(_ request: Request, _ name: String) throws(BackendError) -> String {
        guard let value = request.query(name) else { throw BackendError.invalidRequest("Missing required parameter: \(name)") }
        return value
    }

    static func atURI(_ request: Request, _ name: String) throws(BackendError) -> ATURI {
        let raw = try required(request, name)
        guard let uri = try? ATURI(raw) else { throw BackendError.invalidRequest("Invalid \(name) URI: \(raw.prefix(200))") }
        return uri
    }

    static func integer(_ request: Request, _ name: String) throws(BackendError) -> Int? {
        guard let raw = request.query(name) else { return nil }
        guard let value = Int(raw) else { throw BackendError.invalidRequest("\(name) must be an integer") }
        return value
    }
}
