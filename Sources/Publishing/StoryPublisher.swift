public import ATProto
import Foundation
import Geo
public import HatkClient
public import Imaging
import Lexicon
import Logging
import Places
public import Video
public import Workers

/// Publishes a photo as a story for a signed-in person: the image pipeline on a bounded pool, the place name,
/// `uploadBlob` and `createRecord` on the upstream, and the optional Bluesky cross-post. Knows nothing of HTTP
/// requests or pages; the controller turns its outcomes into answers.
public struct StoryPublisher: Sendable {
    let writer: HatkClient
    /// Image processing, off the shared pool.
    public let work: WorkerPool
    let pipeline: PipelineOptions
    /// Names places from GPS at posting time (offline table, or Nominatim when the operator chose it).
    let geocoder: (any Geocoding)?
    /// Names places for the form's early look, never from an outside service: a file being picked is not yet
    /// a decision to share where it was taken.
    let places: (any Geocoding)?
    /// Turns phone clips into story clips; nil where only photos may be posted. The form asks it for its limits,
    /// and refuses a clip before anything is sent where it is nil.
    public let clips: ClipProcessor?

    /// The H3 resolution of the area `inspect` answers: coarse enough (about 250 km²) that it says where a photo
    /// was taken no better than the place search needs, so the form's `near` parameter accepts nothing finer.
    public static let nearResolution = 5

    /// The composition root hands over the upstream, the image pool and the geocoders it chose, so this type never
    /// decides which outside service sees a position.
    public init(
        writer: HatkClient, work: WorkerPool, pipeline: PipelineOptions, geocoder: (any Geocoding)?, places: (any Geocoding)?,
        clips: ClipProcessor? = nil
    ) {
        self.writer = writer
        self.work = work
        self.pipeline = pipeline
        self.geocoder = geocoder
        self.places = places
        self.clips = clips
    }

    /// What the person chose on the form.
    public struct Choices: Equatable, Sendable {
        /// Unticked, the story carries no location at all, whatever the photo or the form says.
        public var useLocation: Bool
        /// What the person typed in the location field; empty means "use the photo's place name".
        public var locationText: String
        /// Self-labels as picked; only the ones Grain knows (`StoryComposer.allowedLabels`) reach the record.
        public var labels: [String]
        /// Whether to post to Bluesky too; the controller asks only where a post can reach it.
        public var crossPost: Bool
        /// The place picked in the form's place search; it replaces the photo's GPS position and place name.
        public var chosenPlace: PlaceCandidate?
        /// Where in a clip its story starts, in seconds.
        public var clipStart: Double

        /// The defaults are what an untouched form says: the photo's own place, no labels, no cross-post.
        public init(
            useLocation: Bool = true, locationText: String = "", labels: [String] = [], crossPost: Bool = false,
            chosenPlace: PlaceCandidate? = nil, clipStart: Double = 0
        ) {
            self.useLocation = useLocation
            self.locationText = locationText
            self.labels = labels
            self.crossPost = crossPost
            self.chosenPlace = chosenPlace
            self.clipStart = clipStart
        }
    }

    /// The story that was made, and what became of the cross-post.
    public struct Published: Sendable {
        /// The new record, for the redirect to its page and its description.
        public var uri: ATURI
        /// nil when no cross-post was asked for.
        public var crossPosted: Bool?
    }

    /// Bytes in memory (a processed photo, a small upload, a test's), or a file on disk (an upload as it arrived,
    /// a transcoded clip), which is read as it is used and never loaded whole.
    public enum Media: Sendable {
        /// An upload small enough to have arrived in memory.
        case bytes([UInt8])
        /// A path, so a large upload is read from disk as it is processed.
        case file(String)
    }

    /// Why a photo could not be posted, for the form to say.
    public enum Refusal: Error {
        /// Every worker is busy and the queue is full.
        case busy
        /// The photo itself cannot be used (format, size, pixels).
        case unusable(ImagingError)
        /// The clip cannot be used (length, size, codec, a damaged file), or every clip slot is busy.
        case unusableClip(VideoError)
        /// The story server did not take the photo in time. Nothing was posted (the record comes after the blob),
        /// so trying again later is safe; a blob it stored anyway has no record and is never shown.
        case upstreamSlow
    }

    /// Processes `photo` and posts it. Upstream failures are thrown as `HatkError`.
    /// - Parameter storyLink: the public link of the story once made, for the cross-post's text.
    /// - Parameter credentials: asked for once the photo is processed, so a token is refreshed only for a photo
    ///   that can be posted, and concurrent uploads waiting on one refresh still reach the image queue spread out.
    public func publish(
        _ photo: Media, choices: Choices, as credentials: () async throws -> DPoPCredentials, now: @Sendable () -> UTCTime,
        storyLink: (ATURI) -> String
    ) async throws -> Published {
        let processed: ProcessedImage
        do {
            let options = pipeline
            processed = try await work.run {
                switch photo {
                case .bytes(let bytes): try ImagePipeline.process(bytes, options: options)
                case .file(let path): try ImagePipeline.process(fileAt: path, options: options)
                }
            }
        } catch is WorkerPool.Busy {
            throw Refusal.busy
        } catch let error as ImagingError {
            throw Refusal.unusable(error)
        }
        return try await post(
            Processed(
                media: .bytes(processed.jpeg), mimeType: "image/jpeg", width: processed.width, height: processed.height, gps: processed.metadata.gps),
            choices: choices, as: credentials, now: now, storyLink: storyLink)
    }

    /// A photo or clip made ready to post: the bytes to upload and what the record says of them.
    struct Processed {
        var media: Media
        var mimeType: String
        var width: Int
        var height: Int
        /// Where it was taken; only its cell and place name are ever published.
        var gps: GPSCoordinate?
    }

    /// Names the place, uploads the blob and writes the record (and the cross-post, when asked).
    func post(
        _ processed: Processed, choices: Choices, as credentials: () async throws -> DPoPCredentials, now: @Sendable () -> UTCTime,
        storyLink: (ATURI) -> String
    ) async throws -> Published {
        // A name the person typed or chose replaces the geocoder's, so their position is not sent anywhere for it.
        let typed = !choices.locationText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        let place: PlaceLabel? =
            if choices.useLocation, choices.chosenPlace == nil, !typed, let gps = processed.gps {
                await geocoder?.label(for: gps)
            } else {
                nil
            }
        let (location, address) = StoryComposer.location(gps: processed.gps, place: place, choices: choices)
        let credentials = try await credentials()
        let blob: BlobRef
        do {
            blob =
                switch processed.media {
                case .bytes(let bytes): try await writer.uploadBlob(bytes, mimeType: processed.mimeType, as: credentials)
                case .file(let path): try await writer.uploadBlob(fileAt: path, mimeType: processed.mimeType, as: credentials)
                }
        } catch {
            guard error.kind == .timeout else { throw error }
            throw Refusal.upstreamSlow
        }
        let record = StoryComposer.record(
            blob: blob, width: processed.width, height: processed.height, location: location, address: address,
            labels: choices.labels, createdAt: now())
        let output = try await writer.createRecord(
            collection: StoryRecord.collection, record: try JSONValue(encoding: record), as: credentials)
        let uri = try ATURI(output.uri)
        guard choices.crossPost, processed.mimeType.hasPrefix("image/") else { return Published(uri: uri, crossPosted: nil) }
        // The story is posted whatever happens next; a failed cross-post is reported, never hidden.
        let post = CrossPost.record(
            place: LocationDisplay.format(location: location, address: address), storyURL: storyLink(uri), image: blob,
            aspectRatio: record.aspectRatio, createdAt: now().iso8601)
        do {
            _ = try await writer.createRecord(collection: CrossPost.collection, record: post, as: credentials)
            return Published(uri: uri, crossPosted: true)
        } catch {
            log.warning("cross-post failed: \(error)")
            return Published(uri: uri, crossPosted: false)
        }
    }

    /// Where the start of a photo (its EXIF lives there) says it was taken: whether it has a position, the offline
    /// place name, and the H3 resolution-5 cell around it (about 250 km², coarser than the resolution-10 cell the
    /// story publishes), which the form's place search ranks nearby places by. The coordinates never leave this call.
    public func inspect(_ head: [UInt8]) async -> (located: Bool, place: String?, area: String?) {
        guard let gps = Exif.read(head).gps else { return (false, nil, nil) }
        let area = H3.cell(latitude: gps.latitude, longitude: gps.longitude, resolution: Self.nearResolution)
        return (true, await places?.label(for: gps)?.locationName, area?.description)
    }

    /// Deletes one of the person's stories. It is here, beside the writes that made it, so every story write goes
    /// through one type that knows the collection.
    public func delete(rkey: String, as credentials: DPoPCredentials) async throws {
        try await writer.deleteRecord(collection: StoryRecord.collection, rkey: rkey, as: credentials)
    }
}
