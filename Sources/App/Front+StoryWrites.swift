import ATProto
import Foundation
import HTTPServer
import HatkClient
import Imaging
import Lexicon
import Places

/// Posting and deleting stories for the signed-in person, through the upstream's `dev.hatk.*` API.
extension Front {
    /// The largest upload accepted: phone photos are a few megabytes; the pipeline shrinks them.
    static let maxUploadBytes = 30_000_000

    func registerStoryWriteRoutes(on router: inout Router) {
        router.on(.post, SiteURL.create.path, bodyLimit: Self.maxUploadBytes) { [self] request in
            try await self.guarded(request) { try await self.createStory(request) }
        }
        router.on(.post, "/create/inspect", bodyLimit: 1_100_000) { [self] request in
            try await self.inspectPhoto(request)
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
        return try formPage(request, "create", title: "New story", status: status, scripts: ["js/create.js"]) { csrf in
            CreateModel(csrf: csrf, handle: session.handle, error: error)
        }
    }

    func createStory(_ request: Request) async throws -> Response {
        guard let session = try currentSession(request) else { return signInRedirect(next: SiteURL.create.path) }
        let form = try request.multipartForm()
        try cookies.checkCSRF(request, formToken: form.text("csrf"), origin: try connected.origin)
        guard let photo = form["photo"], !photo.body.isEmpty else {
            return try await createForm(request, error: "Choose a photo to post.", status: .badRequest)
        }
        let bytes = try photo.body.load()
        guard Imaging.sniff(bytes) != nil else {
            return try await createForm(request, error: "That file is not a JPEG or PNG photo.", status: .unsupportedMediaType)
        }
        let choices = StoryComposer.Choices(
            useLocation: form.text("useLocation") != nil, locationText: form.text("location") ?? "",
            labels: form.parts.filter { $0.name == "labels" }.map { String(decoding: $0.body.inMemory ?? [], as: UTF8.self) },
            crossPost: form.text("crossPost") != nil)
        if let limited = try await uploadRateLimited(request) { return limited }
        let processed: ProcessedImage
        do {
            let options = uploads.pipeline
            processed = try await uploads.work.run { try ImagePipeline.process(bytes, options: options) }
        } catch is ImageWork.Busy {
            throw HTTPError(
                .serviceUnavailable, "Many photos are being processed right now. Try again in a few seconds.", headers: ["Retry-After": "5"])
        } catch let error as ImagingError {
            let status: HTTPStatus = error.kind == .tooLarge ? .payloadTooLarge : HTTPStatus(code: 422)
            return try await createForm(request, error: "That photo could not be used: \(error.description).", status: status)
        }
        let place: PlaceLabel? =
            if choices.useLocation, let gps = processed.metadata.gps { await uploads.geocoder?.label(for: gps) } else { nil }
        let (location, address) = StoryComposer.location(gps: processed.metadata.gps, place: place, choices: choices)

        let credentials: DPoPCredentials
        do { credentials = try await self.credentials(for: session) } catch is SignInRequired {
            return signInRedirect(next: SiteURL.create.path)
        }
        let hatk = try connected.hatk
        let blob: BlobRef
        do { blob = try await hatk.uploadBlob(processed.jpeg, mimeType: "image/jpeg", as: credentials) } catch {
            if let refused = try await uploadRefused(error, request) { return refused }
            throw error
        }
        let record = StoryComposer.record(
            blob: blob, width: processed.width, height: processed.height, location: location, address: address,
            labels: choices.labels, createdAt: clock())
        let output = try await hatk.createRecord(
            collection: StoryRecord.collection, record: try JSONValue(encoding: record), as: credentials)
        pageCache.removeAll()
        let uri = try ATURI(output.uri)
        let story = SiteURL.story(did: uri.authority, rkey: uri.rkey)
        guard choices.crossPost else { return .redirect(to: story.path) }
        // The story is posted whatever happens next; a failed cross-post is reported on its page.
        let post = CrossPost.record(
            place: LocationDisplay.format(location: location, address: address), storyURL: try connected.origin + story.path,
            image: blob, aspectRatio: record.aspectRatio, createdAt: clock().iso8601)
        do {
            _ = try await hatk.createRecord(collection: CrossPost.collection, record: post, as: credentials)
            return .redirect(to: story.with([("posted", "bluesky")]))
        } catch {
            FileHandle.standardError.write(Data("cross-post failed: \(error)\n".utf8))
            return .redirect(to: story.with([("posted", "bluesky-failed")]))
        }
    }

    /// `POST /create/inspect`: the start of a photo (its EXIF lives there) in, the place it was taken out,
    /// so the form can show and let people edit or drop the location before posting. No coordinates leave.
    func inspectPhoto(_ request: Request) async throws -> Response {
        guard try currentSession(request) != nil else { throw HTTPError(.unauthorized, "Sign in to post a story.") }
        let form = try request.multipartForm()
        try cookies.checkCSRF(request, formToken: form.text("csrf"), origin: try connected.origin)
        let head = try form["photo"]?.body.load() ?? []
        var place: String?
        var located = false
        if let gps = Exif.read(head).gps {
            located = true
            place = await uploads.geocoder?.label(for: gps)?.locationName
        }
        let body: [String: JSONValue] = ["located": .bool(located), "place": place.map(JSONValue.string) ?? .null]
        return Response(
            status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .bytes(Array(try JSONEncoder().encode(body))))
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
        return try formPage(request, "delete", title: "Delete story") { csrf in
            DeleteModel(
                csrf: csrf, action: SiteURL.deleteStory(did: did.rawValue, rkey: rkey).path, cancelHref: story.path,
                imageURL: view.thumb, alt: "The story you are about to delete")
        }
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
