import ATProto
import Crypto
import Foundation
import FrontState
import HTTPServer
import HatkClient
import Lexicon
import Publishing
import Video

/// Clips posted through the create form: the embedded household only, processed by ffmpeg in child processes while
/// the form's script asks how far it is.
extension StoryWrites {
    /// The create form's body limit: a clip may be larger than a photo where clips are accepted.
    var createBodyLimit: Int {
        max(Self.maxUploadBytes, publisher.clips?.limits.maxInputBytes ?? 0)
    }

    /// Where the chosen 15 seconds start, from the form's `start` field (seconds; `1:30` also reads).
    static func clipStart(_ text: String?) -> Double {
        let text = (text ?? "").trimmingCharacters(in: .whitespaces)
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return 0 }
        var seconds = 0.0
        for part in parts {
            guard let value = Double(part), value.isFinite, value >= 0 else { return 0 }
            seconds = seconds * 60 + value
        }
        return min(seconds, 24 * 3600)
    }

    /// Posts a clip: its file is kept in the uploads directory (removed whatever happens) while ffmpeg works on it.
    func createClip(
        _ part: MultipartForm.Part, choices: StoryPublisher.Choices, chosen: PlaceCandidate?, description: String,
        _ context: RequestContext, _ session: BrowserSession
    ) async throws -> Response {
        var choices = choices
        choices.clipStart = Self.clipStart(context.form["start"])
        let path = uploads + "/clip-" + SecureRandom.token(byteCount: 12) + ".part"
        switch part.body {
        case .bytes(let bytes):
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
                throw HTTPError(.internalServerError, "The clip could not be kept for processing; nothing was posted.")
            }
        case .file(let file):
            try file.persist(to: path)
        }
        defer { unlink(path) }
        let token = context.form["progress"] ?? ""
        let visitor = session.idHash
        progress.update(session: visitor, token: token, phase: .waiting, fraction: 0)
        defer { progress.remove(session: visitor, token: token) }
        let published: StoryPublisher.Published
        do {
            published = try await publisher.publishClip(
                at: path, scratch: uploads, choices: choices,
                as: { try await credentials.credentials(for: session, now: context.now) }, now: clock,
                progress: { [progress] phase, fraction in progress.update(session: visitor, token: token, phase: phase, fraction: fraction) },
                storyLink: { (storyOrigin ?? context.origin) + SiteURL.story(did: $0.authority, rkey: $0.rkey).path })
        } catch is SessionCredentials.SignInRequired {
            return signInRedirect(next: SiteURL.create.path)
        } catch StoryPublisher.Refusal.unusableClip(let error) {
            var response = try await form(context, session, error: error.description, status: Self.status(of: error), chosen: chosen)
            if error.kind == .busy { response.headers["Retry-After"] = "10" }
            return response
        } catch StoryPublisher.Refusal.upstreamSlow {
            return try await upstreamTooSlow(taking: "clip", context, session, chosen: chosen)
        } catch let error as HatkError {
            if let refused = try await clipRefused(error, context, session, chosen: chosen) { return refused }
            if let refused = try await uploadRefused(error, context, session) { return refused }
            throw error
        }
        return await posted(published, labels: choices.labels, description: description, context, session)
    }

    /// The answer for a clip that cannot be used: what the person can do about it decides the status.
    static func status(of error: VideoError) -> HTTPStatus {
        switch error.kind {
        case .tooLarge: .payloadTooLarge
        case .noVideoStream, .unsupportedCodec: .unsupportedMediaType
        case .busy: .serviceUnavailable
        case .tooLong, .tooManyPixels, .damaged, .overLimits: .unprocessableContent
        case .notOurFormat: .internalServerError
        }
    }

    /// The backend's refusals that are about clips: a session signed in before clips were offered lacks the grant.
    func clipRefused(
        _ error: HatkError, _ context: RequestContext, _ session: BrowserSession, chosen: PlaceCandidate?
    ) async throws
        -> Response?
    {
        guard case .http(let status, "ScopeMissingError") = error.kind, [401, 403].contains(status) else { return nil }
        return try await form(
            context, session,
            error: "Your sign-in here is from before clips could be posted. Sign out and sign in again, then post the clip.",
            status: .forbidden, chosen: chosen)
    }

    /// `GET /create/progress?token=…`: how far the visitor's clip is, for the form's script. A well-formed token the
    /// server has no news of yet is waiting (its upload may still be arriving, or its post just answered): the script
    /// stops asking when the post answers, and a 404 would be a console error in between.
    func clipProgress(_ context: RequestContext) async throws -> Response {
        let token = context.query("token") ?? ""
        guard let session = context.session, UploadProgress.isToken(token) else {
            throw HTTPError(.badRequest, "The progress token is 16 to 64 letters, digits, - or _.")
        }
        var entry = progress.entry(session: session.idHash, token: token) ?? UploadProgress.Entry(phase: .waiting, fraction: 0, updated: context.now)
        entry.fraction = (entry.fraction * 1000).rounded() / 1000
        var response = Response.json(entry)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
