import ATProto
import Caching
import FrontState
import HTTPServer
import HatkClient
import Imaging
import Lexicon
import Logging
import Readers
import Workers

/// Images the server makes from a story's photo: the 1200 × 630 link preview of its permalink (blurred when the
/// story carries a warning) and the blurred stand-in a warned story shows until the person asks to see it. The photo
/// is fetched from wherever the view says (the embedded household's `/img/…`, a remote hatk's image host), and
/// results are kept in a bounded cache keyed by the story's URI and CID (a record's CID changes with its content), the
/// least recently used going first.
///
/// Anyone who may see a story may ask for its preview (link unfurlers are anonymous), so the work is fenced off: it
/// runs on a small pool of its own, never the upload workers, and each client may have only so many made a minute
/// (cache hits are free), so asking for many stories' previews cannot keep members' uploads waiting.
final class PreviewImages: Sendable {
    enum Kind: String, Sendable {
        case linkPreview, blurredLinkPreview, placeholder
    }

    /// A client asked for more renditions than it may have made a minute.
    struct Limited: Error {
        let retryAfter: Int64
    }

    let photos: any PhotoSource
    /// The previews' own workers: one, with a short queue.
    let work: WorkerPool
    /// Renditions made per client (`client` of the request), cache hits not counted.
    let limiter: any RateLimiting
    let client: @Sendable (Request) -> String?
    /// Entries kept: a preview is about 100 KB, a stand-in one or two.
    static let capacity = 96
    /// Renditions by kind, URI and CID; the least recently used goes first.
    private let cache = Cache<String, [UInt8]>(capacity: PreviewImages.capacity)

    /// - Parameters:
    ///   - limiter: renditions one client may have made a minute (in PostgreSQL when fronts share sessions).
    ///   - client: the key a request counts against (its client address).
    init(photos: any PhotoSource, limiter: any RateLimiting, client: @escaping @Sendable (Request) -> String?) {
        self.photos = photos
        work = WorkerPool(label: "previews", workers: 1, queueLimit: 4)
        self.limiter = limiter
        self.client = client
    }

    /// The rendition of `story` of `kind`. - Throws: `ReadError` when the photo cannot be fetched, `WorkerPool.Busy`
    /// when the pool is full, `ImagingError` when it cannot be read.
    /// - Throws: `Limited` when `client` has had its renditions for the minute.
    func image(_ kind: Kind, of story: StoryView, for client: String, now: Int64) async throws -> [UInt8] {
        let key = kind.rawValue + " " + story.uri + " " + story.cid
        if let hit = cache.value(for: key) { return hit }
        if case .limited(let wait) = try limiter.admit(client, now: now) { throw Limited(retryAfter: wait) }
        // The thumbnail is enough for a stand-in of 64 pixels; a preview wants the full photo.
        let source = try await photos.image(at: kind == .linkPreview ? story.fullsize : story.thumb)
        let jpeg = try await work.run { () throws -> [UInt8] in
            switch kind {
            case .linkPreview: return try Imaging.linkPreview(of: source, blurred: false)
            case .blurredLinkPreview: return try Imaging.linkPreview(of: source, blurred: true)
            case .placeholder: return try Imaging.blurredPlaceholder(of: source).jpeg
            }
        }
        cache.insert(jpeg, for: key)
        return jpeg
    }
}

extension PreviewImages {
    /// The rendition as a response; nil when the photo cannot be read. A full pool answers 503 with Retry-After.
    func response(
        _ kind: Kind, of story: StoryView, context: RequestContext, cacheControl: String = "public, max-age=600"
    ) async throws -> Response? {
        let jpeg: [UInt8]
        do {
            jpeg = try await image(kind, of: story, for: client(context.request) ?? "unknown", now: context.unixNow)
        } catch let limited as Limited {
            throw HTTPError(
                .tooManyRequests, "You asked for many previews at once. Wait \(Plural.count(limited.retryAfter, "second")), then try again.",
                headers: ["Retry-After": String(limited.retryAfter)])
        } catch is WorkerPool.Busy {
            throw HTTPError(.serviceUnavailable, "Many previews are being made right now.", headers: ["Retry-After": "5"])
        } catch let error as ImagingError {
            log.warning("preview of \(story.uri) failed: \(error)")
            return nil
        }
        var response = Response(status: .ok, headers: ["Content-Type": "image/jpeg"], body: .bytes(jpeg))
        // Kept briefly: a story hidden later stops being served within minutes.
        response.headers["Cache-Control"] = cacheControl
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
    }
}
