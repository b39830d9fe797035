import ATProto
import Foundation
import HTTPServer
import HatkClient
import Imaging
import Lexicon

/// Posting and deleting stories for the signed-in person, through the upstream's `dev.hatk.*` API.
extension Front {
    /// The largest photo accepted as it is (the processing pipeline that shrinks bigger ones comes later).
    static let maxPhotoBytes = 900_000

    func registerStoryWriteRoutes(on router: inout Router) {
        router.on(.post, SiteURL.create.path, bodyLimit: Self.maxPhotoBytes + 64 * 1024) { [self] request in
            try await self.guarded(request) { try await self.createStory(request) }
        }
        router.on(.get, "/profile/:did/story/:rkey/delete") { [self] request in
            try await self.guarded(request) { try await self.deleteConfirm(request) }
        }
        router.on(.post, "/profile/:did/story/:rkey/delete") { [self] request in
            try await self.guarded(request) { try await self.deleteStory(request) }
        }
    }

    struct CreateModel: Encodable {
        var csrf: String
        var handle: String
        var error: String?
        var homeHref = SiteURL.home.path
        var logoutHref = SiteURL.logout.path
    }

    func signInRedirect(next: String) -> Response {
        .redirect(to: SiteURL.login.with([("next", next)]), status: .found)
    }

    func createForm(_ request: Request, error: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        guard let session = try currentSession(request) else { return signInRedirect(next: SiteURL.create.path) }
        let (csrf, setCookie) = cookies.csrfToken(for: request)
        var response = try pages.render(
            "create", title: "New story", model: CreateModel(csrf: csrf, handle: session.handle, error: error), status: status)
        if let setCookie { response.headers.add("Set-Cookie", setCookie) }
        return response
    }

    func createStory(_ request: Request) async throws -> Response {
        guard let session = try currentSession(request) else { return signInRedirect(next: SiteURL.create.path) }
        let form = try request.multipartForm()
        try cookies.checkCSRF(request, formToken: form.text("csrf"), origin: try connected.origin)
        guard let photo = form["photo"], !photo.body.isEmpty else {
            return try await createForm(request, error: "Choose a photo to post.", status: .badRequest)
        }
        guard Imaging.sniff(photo.body) == .jpeg, let info = try? Imaging.readInfo(photo.body) else {
            return try await createForm(request, error: "That file is not a JPEG photo. Choose a .jpg file.", status: .unsupportedMediaType)
        }
        guard photo.body.count <= Self.maxPhotoBytes else {
            return try await createForm(
                request, error: "That photo is \(photo.body.count / 1000) kB; the limit is \(Self.maxPhotoBytes / 1000) kB.",
                status: .payloadTooLarge)
        }
        let credentials: DPoPCredentials
        do { credentials = try await self.credentials(for: session) } catch is SignInRequired {
            return signInRedirect(next: SiteURL.create.path)
        }
        let hatk = try connected.hatk
        let blob = try await hatk.uploadBlob(photo.body, mimeType: "image/jpeg", as: credentials)
        let record = StoryRecord(
            media: blob, aspectRatio: AspectRatio(width: info.width, height: info.height), createdAt: clock().iso8601)
        let output = try await hatk.createRecord(
            collection: StoryRecord.collection, record: try JSONValue(encoding: record), as: credentials)
        pageCache.removeAll()
        let uri = try ATURI(output.uri)
        return .redirect(to: SiteURL.story(did: uri.authority, rkey: uri.rkey).path)
    }

    struct DeleteModel: Encodable {
        var csrf: String
        var action: String
        var cancelHref: String
        var imageURL: String
        var alt: String
    }

    func deleteConfirm(_ request: Request) async throws -> Response {
        let did = try request.parameters.require("did")
        let rkey = try request.parameters.require("rkey")
        let story = SiteURL.story(did: did, rkey: rkey)
        guard let session = try currentSession(request) else { return signInRedirect(next: story.path) }
        guard session.did == did else { throw HTTPError(.forbidden, "You can only delete your own stories.") }
        guard let did = DID.parse(did), RecordKey.isValid(rkey),
            let view = try await reader.story(ATURI(authority: did.rawValue, collection: StoryRecord.collection, rkey: rkey))
        else { return try notFound("This story does not exist, or it was already deleted.") }
        let (csrf, setCookie) = cookies.csrfToken(for: request)
        var response = try pages.render(
            "delete", title: "Delete story",
            model: DeleteModel(
                csrf: csrf, action: SiteURL.deleteStory(did: did.rawValue, rkey: rkey).path, cancelHref: story.path,
                imageURL: view.thumb, alt: "The story you are about to delete"))
        if let setCookie { response.headers.add("Set-Cookie", setCookie) }
        return response
    }

    func deleteStory(_ request: Request) async throws -> Response {
        let did = try request.parameters.require("did")
        let rkey = try request.parameters.require("rkey")
        let form = try request.urlEncodedForm()
        try cookies.checkCSRF(request, formToken: form["csrf"], origin: try connected.origin)
        guard let session = try currentSession(request) else {
            return signInRedirect(next: SiteURL.story(did: did, rkey: rkey).path)
        }
        guard session.did == did, RecordKey.isValid(rkey) else {
            throw HTTPError(.forbidden, "You can only delete your own stories.")
        }
        let credentials: DPoPCredentials
        do { credentials = try await self.credentials(for: session) } catch is SignInRequired {
            return signInRedirect(next: SiteURL.story(did: did, rkey: rkey).path)
        }
        try await connected.hatk.deleteRecord(collection: StoryRecord.collection, rkey: rkey, as: credentials)
        pageCache.removeAll()
        return .redirect(to: SiteURL.home.path)
    }
}
