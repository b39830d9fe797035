import ATProto
import HTTPServer
import HatkClient
import Imaging
import Lexicon
import Logging
import Synchronization
import Workers

/// Images the server makes from a story's photo: the 1200 × 630 link preview of its permalink (blurred when the
/// story carries a warning) and the blurred stand-in a warned story shows until the person asks to see it. The photo
/// is fetched from wherever the view says (the embedded household's `/img/…`, a remote hatk's image host), the work
/// runs on the front's image pool, off the Swift pool, and results are kept in a bounded cache keyed by the story's
/// URI and CID (a record's CID changes with its content).
final class PreviewImages: Sendable {
    enum Kind: String, Sendable {
        case linkPreview, blurredLinkPreview, placeholder
    }

    /// Renditions by key, and the keys oldest first.
    private struct Cache {
        var entries: [String: [UInt8]] = [:]
        var order: [String] = []
    }

    let photos: any PhotoSource
    let work: WorkerPool
    private let cache = Mutex(Cache())
    /// Entries kept: a preview is about 100 KB, a stand-in one or two.
    static let capacity = 96

    init(photos: any PhotoSource, work: WorkerPool) {
        self.photos = photos
        self.work = work
    }

    /// The rendition of `story` of `kind`. - Throws: `HatkError` when the photo cannot be fetched, `WorkerPool.Busy`
    /// when the pool is full, `ImagingError` when it cannot be read.
    func image(_ kind: Kind, of story: StoryView) async throws -> [UInt8] {
        let key = kind.rawValue + " " + story.uri + " " + story.cid
        if let hit = cache.withLock({ $0.entries[key] }) { return hit }
        // The thumbnail is enough for a stand-in of 64 pixels; a preview wants the full photo.
        let source = try await photos.image(at: kind == .linkPreview ? story.fullsize : story.thumb)
        let jpeg = try await work.run { () throws -> [UInt8] in
            switch kind {
            case .linkPreview: return try Imaging.linkPreview(of: source, blurred: false)
            case .blurredLinkPreview: return try Imaging.linkPreview(of: source, blurred: true)
            case .placeholder: return try Imaging.blurredPlaceholder(of: source).jpeg
            }
        }
        cache.withLock { cache in
            if cache.entries[key] == nil { cache.order.append(key) }
            cache.entries[key] = jpeg
            while cache.order.count > Self.capacity { cache.entries[cache.order.removeFirst()] = nil }
        }
        return jpeg
    }
}

extension PreviewImages {
    /// The rendition as a response; nil when the photo cannot be read. A full pool answers 503 with Retry-After.
    func response(_ kind: Kind, of story: StoryView, cacheControl: String = "public, max-age=600") async throws -> Response? {
        let jpeg: [UInt8]
        do {
            jpeg = try await image(kind, of: story)
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

/// Where the front gets a story's photo for the images it makes: a hatk's image host over HTTP (`HatkClient`), or the
/// embedded household's blobs in this process.
public protocol PhotoSource: Sendable {
    /// The JPEG or PNG bytes at `address`. - Throws: `HatkError` when there is no such photo or it cannot be fetched.
    func image(at address: String) async throws -> [UInt8]
}

extension HatkClient: PhotoSource {}
