import Foundation
import FrontState
import HTTPServer
import Imaging
import Publishing
import Video

/// Where the photo of a post comes from (the file field, the camera field, or a photo shared from another app),
/// and the share target itself.
extension StoryWrites {
    var shared: SharedPhotos { SharedPhotos(directory: uploads) }

    /// The photo a create form posted.
    enum ReceivedPhoto {
        /// Chosen or taken on the form.
        case part(MultipartForm.Part)
        /// Shared from another app earlier, confirmed now.
        case staged(path: String, SharedPhotos.Staged)
        /// A clip chosen or filmed on the form (the embedded household only).
        case clip(MultipartForm.Part)

        var staged: SharedPhotos.Staged? {
            if case .staged(_, let staged) = self { return staged }
            return nil
        }
    }

    /// Why the form's photo cannot be used, as the form says it.
    struct PhotoProblem: Error {
        var description: String
        var status: HTTPStatus
        /// A staged share to keep offering.
        var staged: SharedPhotos.Staged?
    }

    /// The photo to post: a file chosen or taken on the form wins over a staged share (the person picked again).
    func receivedPhoto(_ context: RequestContext, _ session: BrowserSession) -> Result<ReceivedPhoto, PhotoProblem> {
        let unreadable = "That file is not a photo format we can read (\(ImageFormat.namesForPeople))."
        let picked = ["photo", "camera"].lazy.compactMap { context.form.file($0) }.first { !$0.body.isEmpty }
        let token = context.form["staged"] ?? ""
        let staged = token.isEmpty ? nil : shared.file(token: token, session: session, now: context.now)
        if let picked {
            guard let head = try? picked.body.prefix(64) else {
                return .failure(PhotoProblem(description: unreadable, status: .unsupportedMediaType))
            }
            if Imaging.sniff(head) != nil {
                guard picked.body.count <= Self.maxUploadBytes else {
                    return .failure(
                        PhotoProblem(
                            description: "This photo is \(Self.megabytes(picked.body.count)); photos up to "
                                + "\(Self.megabytes(Self.maxUploadBytes)) are accepted.",
                            status: .payloadTooLarge))
                }
                return .success(.part(picked))
            }
            guard ClipSniffer.isClip(head) else { return .failure(PhotoProblem(description: unreadable, status: .unsupportedMediaType)) }
            // Decided before anything is sent anywhere: a clip never goes to a server that may be Grain's.
            guard publisher.clips != nil else {
                return .failure(PhotoProblem(description: StoryPublisher.clipsNotHere.description, status: .unsupportedMediaType))
            }
            return .success(.clip(picked))
        }
        if let staged, let format = Imaging.sniff(fileAt: staged) {
            return .success(.staged(path: staged, Self.describe(staged, token: token, format: format)))
        }
        if !token.isEmpty {
            return .failure(
                PhotoProblem(
                    description: "The photo you shared is no longer waiting here (shared photos wait an hour). "
                        + "Share it again, or choose it with the button below.",
                    status: .unprocessableContent))
        }
        return .failure(PhotoProblem(description: "Choose a photo to post, or take one.", status: .badRequest))
    }

    /// `31 MB`, for the form's sentences about sizes.
    static func megabytes(_ bytes: Int) -> String { "\((bytes + 999_999) / 1_000_000) MB" }

    static func describe(_ path: String, token: String, format: ImageFormat) -> SharedPhotos.Staged {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        return SharedPhotos.Staged(token: token, description: SharedPhotos.describe(format: format.name, bytes: size))
    }

    /// `POST /share`: the manifest's share target. Another app's share carries no CSRF token, so this never posts:
    /// it stages the photo in the visitor's one slot and answers the create form, whose normal, CSRF-checked post
    /// publishes it. A visitor not signed in was refused before the body was read (the route requires a session).
    func sharePhoto(_ context: RequestContext) async throws -> Response {
        guard let session = context.session else { return signInRedirect(next: SiteURL.create.path) }
        guard let part = ["photo", "camera"].lazy.compactMap({ context.form.file($0) }).first(where: { !$0.body.isEmpty })
        else { return try await form(context, session, error: "Nothing was shared. Choose a photo to post.", status: .badRequest) }
        guard let head = try? part.body.prefix(64), let format = Imaging.sniff(head) else {
            return try await form(
                context, session, error: "What was shared is not a photo format we can read (\(ImageFormat.namesForPeople)).",
                status: .unsupportedMediaType)
        }
        let staged: SharedPhotos.Staged
        switch part.body {
        case .file(let file):
            staged = try shared.stage(file, format: format.name, session: session, now: context.now)
        case .bytes(let bytes):
            staged = try shared.stage(bytes, format: format.name, session: session, now: context.now)
        }
        return try await form(context, session, error: nil, staged: staged)
    }
}
