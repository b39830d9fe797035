import ATProto
import HTTPServer
import HatkClient
import Imaging
import Lexicon
import Logging
import Readers
import Workers

/// Images made here from a story's photo: the link preview of its permalink, and the blurred stand-in of a warned
/// story. Neither exists for a story that may not be shown.
extension StoryPages {
    /// `GET /profile/<did>/story/<rkey>/preview.jpg`: 1200 × 630, blurred when the story carries a warning.
    func preview(_ context: RequestContext) async throws -> Response {
        guard let (story, decision) = try await shownStory(context) else { return Self.notFoundImage }
        return try await image(decision.warns ? .blurredLinkPreview : .linkPreview, of: story, context)
    }

    /// `GET /profile/<did>/story/<rkey>/blurred.jpg`: a warned story's blurred stand-in (any story's, in fact: it
    /// shows nothing either way).
    func blurred(_ context: RequestContext) async throws -> Response {
        guard let (story, _) = try await shownStory(context) else { return Self.notFoundImage }
        return try await image(.placeholder, of: story, context)
    }

    /// The story of the path and what its labels call for; nil when it does not exist or is hidden.
    func shownStory(_ context: RequestContext) async throws -> (StoryView, LabelDecision)? {
        guard let did = DID.parse(try context.parameter("did")) else { return nil }
        let rkey = try context.parameter("rkey")
        guard RecordKey.isValid(rkey) else { return nil }
        let uri = ATURI(authority: did.rawValue, collection: StoryRecord.collection, rkey: rkey)
        let filter = await visibility.filter(for: context)
        guard let story = try await context.reader.story(uri), !filter.visible([story]).isEmpty else { return nil }
        return (story, filter.decision(story))
    }

    func image(_ kind: PreviewImages.Kind, of story: StoryView, _ context: RequestContext) async throws -> Response {
        try await previews.response(kind, of: story, context: context) ?? Self.notFoundImage
    }

    static var notFoundImage: Response {
        var response = Response.text("No such image.", status: .notFound)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
