import ATProto
import HTTPServer
import HatkClient
import Lexicon
import Logging
import Readers

/// What a share link shows to whoever has it: the page, the photo and the link preview, each through the token.
extension ShareLinkController {
    struct SharedModel: Encodable {
        var authorName: String
        var photoHref: String
        var alt: String
        var ago: String
        var createdAt: String
        var place: String?
        var width: Int
        var height: Int
        /// The story carries a content warning: its photo is the blurred stand-in.
        var warned: Bool
    }

    /// `GET /s/<token>`.
    func shared(_ context: RequestContext) async throws -> Response {
        let token = try context.parameter("token")
        guard let (story, decision) = try await sharedStory(token, context) else { return gone(context) }
        let item = StoryItem(
            story, index: 0, count: 1, href: SiteURL.sharedStory(token: token).path, seen: false, mine: false, now: context.now,
            decision: decision)
        let name = story.creator.displayName.flatMap { $0.isEmpty ? nil : $0 } ?? story.creator.handle
        let model = SharedModel(
            authorName: name, photoHref: SiteURL.sharedPhoto(token: token).path, alt: item.alt,
            ago: RelativeTime.long(
                UTCTime(iso8601: story.createdAt) ?? context.now, now: context.now), createdAt: story.createdAt,
            place: item.place, width: story.aspectRatio.width, height: story.aspectRatio.height, warned: item.warning != nil)
        let title = "A story from \(name)"
        let image = context.origin + SiteURL.sharedPreview(token: token).path
        var response = try pages.render(
            "shared-story", title: title, model: model,
            meta: [
                .init(property: "og:type", content: "article"), .init(property: "og:title", content: title),
                .init(property: "og:image", content: image), .init(property: "og:image:width", content: "1200"),
                .init(property: "og:image:height", content: "630"), .init(name: "twitter:card", content: "summary_large_image"),
                .init(name: "robots", content: "noindex"),
            ], context: context)
        Self.keepToTheLink(&response)
        return response
    }

    /// `GET /s/<token>/photo.jpg`: the story's photo (its blurred stand-in when it carries a warning).
    func photo(_ context: RequestContext) async throws -> Response {
        guard let (story, decision) = try await sharedStory(try context.parameter("token"), context) else { return StoryPages.notFoundImage }
        var response: Response
        if decision.warns {
            response =
                try await previews.response(.placeholder, of: story, context: context, cacheControl: "private, no-cache") ?? StoryPages.notFoundImage
        } else {
            let bytes: [UInt8]
            do { bytes = try await photos.image(at: story.fullsize) } catch { return StoryPages.notFoundImage }
            let png = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
            response = Response(status: .ok, headers: ["Content-Type": png ? "image/png" : "image/jpeg"], body: .bytes(bytes))
            // Checked again at every look, so a revoked link stops showing the photo at once.
            response.headers["Cache-Control"] = "private, no-cache"
            response.headers["X-Content-Type-Options"] = "nosniff"
        }
        Self.keepToTheLink(&response)
        return response
    }

    /// `GET /s/<token>/preview.jpg`: the link preview a chat app shows for the link (blurred behind a warning).
    func preview(_ context: RequestContext) async throws -> Response {
        guard let (story, decision) = try await sharedStory(try context.parameter("token"), context) else { return StoryPages.notFoundImage }
        var response =
            try await previews.response(
                decision.warns ? .blurredLinkPreview : .linkPreview, of: story, context: context, cacheControl: "private, no-cache")
            ?? StoryPages.notFoundImage
        Self.keepToTheLink(&response)
        return response
    }

    /// The live story a token opens, and what its labels call for; nil for a token that opens nothing, a story since
    /// deleted, expired or hidden.
    func sharedStory(_ token: String, _ context: RequestContext) async throws -> (StoryView, LabelDecision)? {
        guard token.utf8.count <= 128, let share = try passes.share(token: token, now: context.now) else { return nil }
        guard let story = try await context.reader.story(share.story), story.expired != true,
            let created = UTCTime(iso8601: story.createdAt), !StoryRecord.isExpired(createdAt: created, now: context.now)
        else { return nil }
        let filter = await visibility.filter(for: context)
        guard !filter.visible([story]).isEmpty else { return nil }
        return (story, filter.decision(story))
    }

    func gone(_ context: RequestContext) -> Response {
        var response = errors.page(status: .notFound, heading: "Link not available", message: Self.linkGone, context: context)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// A shared story's answers stay with whoever has the link: no search engine lists them, and no other site learns
    /// the link from a Referer (`same-origin`, not `no-referrer`, which would make a form's Origin `null`). Each answer
    /// is already kept by no shared cache: pages are `no-store`, images `private, no-cache`.
    static func keepToTheLink(_ response: inout Response) {
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Robots-Tag"] = "noindex"
    }
}
