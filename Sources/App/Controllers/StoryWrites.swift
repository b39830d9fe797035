import ATProto
import Crypto
import Foundation
import FrontState
import HTTPServer
import HatkClient
import Imaging
import Lexicon
import Logging
import Publishing
import Readers
import Video

/// Posting and deleting one's own stories: the create form, its early look at a photo, and the delete step.
/// Every answer to a problem is the form again with a sentence saying what happened and what to do, so nothing
/// the person chose is lost in an error page.
struct StoryWrites: Sendable {
    let pages: PageRenderer
    let credentials: SessionCredentials
    let errors: FrontErrors
    let pageCache: PageCache
    let publisher: StoryPublisher
    /// Photos one client address may post per minute.
    let limiter: any RateLimiting
    let clientAddress: @Sendable (Request) -> String?
    /// The configured public origin, for the link a cross-post carries; nil uses the origin posted from.
    let storyOrigin: String?
    /// Where upload bodies stream to; photos are processed from their own file here.
    let uploads: String
    /// Stamps the record's `createdAt` when it is written (after processing, not when the upload began).
    let clock: @Sendable () -> UTCTime
    /// The offline place search; nil when the server has no place table.
    let places: (any PlaceFinding)?
    /// Whether a post can reach Bluesky: only a remote hatk writes to the member's own repository. The embedded
    /// household has no Bluesky, so the form does not offer it.
    let canCrossPost: Bool
    /// Which of one's own stories show blurred on the delete step.
    let labels: LabelPolicies
    /// Who will see a story posted here, in words for the form.
    let audienceNote: String
    /// Where descriptions are kept; nil (no field on the form) against a remote hatk.
    let descriptions: (any StoryDescribing)?
    /// How far each visitor's clip is processed, for the form's script.
    let progress: UploadProgress

    /// The largest upload accepted: phone photos are a few megabytes; the pipeline shrinks them.
    static let maxUploadBytes = 30_000_000
    /// How much of a photo the form's early look reads: EXIF lives in the first segments.
    static let inspectBytes = 1_100_000

    struct CreateModel: Encodable {
        var csrf: String
        var handle: String
        var error: String?
        var canCrossPost: Bool
        /// Who will see the story: the household's members, or anyone.
        var audienceNote = ""
        /// After posting a story its labels hide from everyone: where it went, in words.
        var postedHidden: String?
        /// And how to take it back: it shows nowhere, so nowhere else offers Delete.
        var hiddenDeleteHref: String?
        /// The formats the server reads, for the file field's label.
        var formats = ImageFormat.namesForPeople + ", up to 50 megapixels"
        /// Whether a clip may be posted here (the embedded household; never toward Grain).
        var acceptsVideo = false
        /// The largest clip accepted, in MB, and the length of a clip's story in seconds.
        var maxVideoMB = 0
        var clipSeconds = 0
        /// The start of a clip's story, as the form posted it.
        var clipStart = ""
        var place: PlaceStep
        /// A photo shared from another app, waiting for this form to post it.
        var staged: SharedPhotos.Staged?
        /// Whether the form offers a description of the photo (the embedded household keeps it).
        var canDescribe = false
        /// What was typed, kept when the form comes back with an error.
        var describedText = ""
        var describedAsCaption = false
        var maxDescription = 0
    }

    func signInRedirect(next: String) -> Response {
        .redirect(to: SiteURL.login.with([("next", next)]), status: .found)
    }

    /// `GET /create`, and `GET /create?place=…`: the form, with the place search's results when one was asked.
    func createForm(_ context: RequestContext) async throws -> Response {
        guard let session = context.session else {
            let query = Self.placeQuery(context.query("place"))
            return signInRedirect(next: query.isEmpty ? SiteURL.create.path : SiteURL.create.with([("place", query)]))
        }
        let step = await placeStep(query: Self.placeQuery(context.query("place")))
        var model = await model(context, session, error: nil, place: step)
        if context.query("posted") == "hidden" {
            model.postedHidden = "Your story is posted, but its label hides it: Grain shows it to nobody, you included."
            model.hiddenDeleteHref = context.query("story").flatMap { RecordKey.isValid($0) ? $0 : nil }.map {
                SiteURL.deleteStory(did: session.did, rkey: $0).with([("hidden", "1")])
            }
        }
        return try render(model, context)
    }

    /// The form's model; `chosen` keeps a place the person had picked ticked, so an error does not lose it.
    func model(
        _ context: RequestContext, _ session: BrowserSession, error: String?, chosen: PlaceCandidate? = nil,
        place: PlaceStep? = nil, staged: SharedPhotos.Staged? = nil
    ) async -> CreateModel {
        var step = place
        if step == nil { step = await placeStep(query: "", chosen: chosen) }
        var model = CreateModel(
            csrf: context.csrf.value, handle: session.handle, error: error, canCrossPost: canCrossPost, audienceNote: audienceNote,
            place: step ?? PlaceStep(available: false), staged: staged)
        if let clips = publisher.clips {
            model.acceptsVideo = true
            model.maxVideoMB = clips.limits.maxInputBytes / 1_000_000
            model.clipSeconds = Int(clips.limits.storySeconds)
            model.clipStart = String((context.form["start"] ?? "").prefix(12))
        }
        if let descriptions {
            model.canDescribe = true
            model.maxDescription = descriptions.maxLength
            model.describedText = String((context.form["description"] ?? "").prefix(descriptions.maxLength * 2))
            model.describedAsCaption = context.form["caption"] != nil
        }
        return model
    }

    func render(_ model: CreateModel, _ context: RequestContext, status: HTTPStatus = .ok) throws -> Response {
        try pages.render(
            "create", title: "New story", model: model, status: status, scripts: ["js/create.js"], form: true, context: context)
    }

    /// The form again with a sentence saying what happened, keeping what the person chose.
    func form(
        _ context: RequestContext, _ session: BrowserSession, error: String?, status: HTTPStatus = .ok,
        chosen: PlaceCandidate? = nil, place: PlaceStep? = nil, staged: SharedPhotos.Staged? = nil
    ) async throws -> Response {
        try render(await model(context, session, error: error, chosen: chosen, place: place, staged: staged), context, status: status)
    }

    /// `POST /create`: processes the photo and posts it, then shows the new story.
    func createStory(_ context: RequestContext) async throws -> Response {
        guard let session = context.session else { return signInRedirect(next: SiteURL.create.path) }
        let photo: ReceivedPhoto
        switch receivedPhoto(context, session) {
        case .success(let received): photo = received
        case .failure(let problem):
            return try await form(context, session, error: problem.description, status: problem.status, staged: problem.staged)
        }
        let staged = photo.staged
        let address = clientAddress(context.request) ?? "unknown"
        if case .limited(let wait) = try limiter.admit(address, now: context.unixNow) {
            var response = try await form(
                context, session,
                error: "You have posted many photos in the last minute. Wait \(Plural.count(wait, "second")), then try again.",
                status: .tooManyRequests, staged: staged)
            response.headers["Retry-After"] = String(wait)
            return response
        }
        // Only where a description can be kept is there a field to read.
        var description = ""
        if let descriptions {
            description = (context.form["description"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard description.count <= descriptions.maxLength else {
                return try await form(
                    context, session,
                    error: "The description is \(description.count) characters long; at most \(descriptions.maxLength) are kept. "
                        + "Shorten it, then post again.",
                    status: .unprocessableContent, staged: staged)
            }
        }
        let chosen: PlaceCandidate?
        switch await chosenPlace(context) {
        case .success(let place): chosen = place
        case .failure(let missing):
            return try await form(context, session, error: missing.description, status: .unprocessableContent, staged: staged)
        }
        let choices = StoryPublisher.Choices(
            useLocation: context.form["useLocation"] != nil, locationText: context.form["location"] ?? "",
            labels: context.form.values("labels"), crossPost: canCrossPost && context.form["crossPost"] != nil,
            chosenPlace: chosen)
        let origin = storyOrigin ?? context.origin
        let published: StoryPublisher.Published
        // The photo is read from disk where the upload streamed to (its own file, removed whatever happens), so a
        // 25 MB upload never sits in memory while it waits for a worker. A staged share is already such a file.
        let input: StoryPublisher.Media
        var partFile: String?
        switch photo {
        case .clip(let part):
            return try await createClip(part, choices: choices, chosen: chosen, description: description, context, session)
        case .staged(let path, _):
            input = .file(path)
        case .part(let part):
            switch part.body {
            case .bytes(let bytes):
                input = .bytes(bytes)
            case .file(let file):
                let path = uploads + "/photo-" + SecureRandom.token(byteCount: 12) + ".part"
                try file.persist(to: path)
                input = .file(path)
                partFile = path
            }
        }
        defer { if let partFile { try? FileManager.default.removeItem(atPath: partFile) } }
        do {
            published = try await publisher.publish(
                input, choices: choices, as: { try await credentials.credentials(for: session, now: context.now) }, now: clock,
                storyLink: { origin + SiteURL.story(did: $0.authority, rkey: $0.rkey).path })
        } catch is SessionCredentials.SignInRequired {
            return signInRedirect(next: SiteURL.create.path)
        } catch StoryPublisher.Refusal.busy {
            throw HTTPError(
                .serviceUnavailable, "Many photos are being processed right now. Try again in a few seconds.", headers: ["Retry-After": "5"])
        } catch StoryPublisher.Refusal.upstreamSlow {
            return try await upstreamTooSlow(taking: "photo", context, session, chosen: chosen)
        } catch StoryPublisher.Refusal.unusable(let error) {
            let status: HTTPStatus =
                switch error.kind {
                case .tooLarge: .payloadTooLarge
                case .unsupportedFormat: .unsupportedMediaType
                case .unreadable: .internalServerError
                default: .unprocessableContent
                }
            // The description is a whole sentence naming the format and the limit. A staged share that cannot be
            // used is dropped: trying it again would fail the same way.
            if let staged { shared.remove(token: staged.token, session: session, now: context.now) }
            return try await form(context, session, error: error.description, status: status, chosen: chosen)
        } catch let error as HatkError {
            if let refused = try await uploadRefused(error, context, session) { return refused }
            throw error
        }
        if let staged { shared.remove(token: staged.token, session: session, now: context.now) }
        return await posted(published, labels: choices.labels, description: description, context, session)
    }

    /// Keeps the description of a story just posted and leads to it.
    func posted(
        _ published: StoryPublisher.Published, labels chosenLabels: [String], description: String, _ context: RequestContext,
        _ session: BrowserSession
    ) async -> Response {
        if let descriptions, !description.isEmpty {
            // The story is posted: a description that cannot be kept is logged, never a reason to fail the post.
            do {
                try descriptions.describe(
                    story: published.uri.description, by: session.did, text: description, caption: context.form["caption"] != nil)
            } catch {
                log.warning("the description of \(published.uri) was not kept: \(error)")
            }
        }
        pageCache.removeAll()
        // A story its own labels hide (gore) is served to nobody, its author included: say so instead of a 404.
        if await labels.current().policy.resolve(values: chosenLabels).action == .hide {
            return .redirect(to: SiteURL.create.with([("posted", "hidden"), ("story", published.uri.rkey)]))
        }
        let story = SiteURL.story(did: published.uri.authority, rkey: published.uri.rkey)
        switch published.crossPosted {
        case nil: return .redirect(to: story.path)
        case true?: return .redirect(to: story.with([("posted", "bluesky")]))
        case false?: return .redirect(to: story.with([("posted", "bluesky-failed")]))
        }
    }

    /// The form again, 503 with Retry-After: the story server did not take the upload in time, and nothing was posted.
    func upstreamTooSlow(
        taking what: String, _ context: RequestContext, _ session: BrowserSession, chosen: PlaceCandidate?
    ) async throws
        -> Response
    {
        var response = try await form(
            context, session, error: "The story server took too long to take your \(what), so nothing was posted. Try again in a few seconds.",
            status: .serviceUnavailable, chosen: chosen)
        response.headers["Retry-After"] = "5"
        return response
    }

    /// The form with what the story server's refusal of an upload means; nil for failures that are not about
    /// capacity (those become the retry page).
    func uploadRefused(_ error: HatkError, _ context: RequestContext, _ session: BrowserSession) async throws -> Response? {
        guard case .http(let status, let name) = error.kind else { return nil }
        switch status {
        case 413 where name == "QuotaExceeded":
            // The backend's sentence names the quota and the use; a page cannot say it better.
            let message = error.detail.isEmpty ? "This photo would go past your storage quota." : String(error.detail.prefix(300))
            return try await form(context, session, error: message, status: .payloadTooLarge)
        case 507:
            return try await form(
                context, session,
                error: "The server has run out of storage space, so your photo was not saved. "
                    + "Whoever runs this server needs to free some space; then try again.",
                status: .insufficientStorage)
        case 503:
            var response = try await form(
                context, session, error: "The story server is busy right now. Try again in a few seconds.", status: .serviceUnavailable)
            response.headers["Retry-After"] = "5"
            return response
        default:
            return nil
        }
    }

    /// `POST /create/inspect`: the start of a photo (its EXIF lives there) in, where it was taken out, so the form
    /// can offer the place before posting. The coordinates never leave the server.
    func inspectPhoto(_ context: RequestContext) async throws -> Response {
        guard context.session != nil else { throw HTTPError(.unauthorized, "Sign in to post a story.") }
        let head = try context.form.file("photo")?.body.prefix(StoryWrites.inspectBytes) ?? []
        let (located, place, area) = await publisher.inspect(head)
        let body: [String: JSONValue] = [
            "located": .bool(located), "place": place.map(JSONValue.string) ?? .null, "area": area.map(JSONValue.string) ?? .null,
        ]
        return Response(
            status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .bytes(Array(try JSONEncoder().encode(body))))
    }

    struct DeleteModel: Encodable {
        var csrf: String
        var action: String
        var cancelHref: String
        /// nil for a story nobody is shown (its labels hide it): there is nothing to picture.
        var imageURL: String?
        var alt: String
    }

    /// `GET /profile/<did>/story/<rkey>/delete`: the confirm step.
    func deleteConfirm(_ context: RequestContext) async throws -> Response {
        let did = try context.parameter("did")
        let rkey = try context.parameter("rkey")
        let story = SiteURL.story(did: did, rkey: rkey)
        guard let session = context.session else { return signInRedirect(next: story.path) }
        guard session.did == did else { throw HTTPError(.forbidden, "You can only delete your own stories.") }
        guard let parsed = DID.parse(did), RecordKey.isValid(rkey) else {
            return errors.notFound("This story does not exist, or it was already deleted.", context: context)
        }
        let view = try await context.reader.story(ATURI(authority: parsed.rawValue, collection: StoryRecord.collection, rkey: rkey))
        // A story no query serves (its labels hide it) can still be deleted by its author, from the link the create
        // form gave them; it is pictured nowhere, here included.
        guard view != nil || context.query("hidden") == "1" else {
            return errors.notFound("This story does not exist, or it was already deleted.", context: context)
        }
        let policy = await labels.current().policy
        let model = DeleteModel(
            csrf: context.csrf.value, action: SiteURL.deleteStory(did: did, rkey: rkey).path,
            cancelHref: view == nil ? SiteURL.home.path : story.path,
            imageURL: view.map { StoryItem.thumb($0, decision: policy.resolve($0)) }, alt: "The story you are about to delete")
        return try pages.render("delete", title: "Delete story", model: model, form: true, context: context)
    }

    /// `POST /profile/<did>/story/<rkey>/delete`.
    func deleteStory(_ context: RequestContext) async throws -> Response {
        let did = try context.parameter("did")
        let rkey = try context.parameter("rkey")
        guard let session = context.session else { return signInRedirect(next: SiteURL.story(did: did, rkey: rkey).path) }
        guard session.did == did, RecordKey.isValid(rkey) else { throw HTTPError(.forbidden, "You can only delete your own stories.") }
        do {
            try await publisher.delete(rkey: rkey, as: try await credentials.credentials(for: session, now: context.now))
        } catch is SessionCredentials.SignInRequired {
            return signInRedirect(next: SiteURL.story(did: did, rkey: rkey).path)
        }
        pageCache.removeAll()
        return .redirect(to: SiteURL.home.with([("done", "deleted")]))
    }
}

extension StoryWrites {
    /// The routes this controller answers, one line per method and page.
    var routes: [Route] {
        [
            Route(method: .get, page: .create, access: .posters, handler: createForm),
            Route(
                method: .post, page: .create, access: .posters, bodyLimit: createBodyLimit, requiresSession: true, bodyOnDisk: true,
                handler: createStory),
            Route(
                method: .post, page: .createInspect, access: .posters, group: .api, bodyLimit: StoryWrites.inspectBytes + 64 * 1024,
                requiresSession: true,
                handler: inspectPhoto),
            Route(method: .get, page: .placesData, access: .posters, group: .api, handler: placesData),
            Route(method: .get, page: .createProgress, access: .posters, handler: clipProgress),
            Route(method: .get, page: .manifest, access: .anyone, handler: WebManifest.respond),
            Route(
                method: .post, page: .share, access: .posters, bodyLimit: StoryWrites.maxUploadBytes, requiresSession: true, bodyOnDisk: true,
                shareTarget: true,
                handler: sharePhoto),
            Route(method: .get, page: .deleteStory(did: .key, rkey: .key), access: .posters, handler: deleteConfirm),
            Route(method: .post, page: .deleteStory(did: .key, rkey: .key), access: .posters, bodyLimit: 4096, handler: deleteStory),
        ]
    }
}
