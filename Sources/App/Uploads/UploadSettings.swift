import Imaging

/// How uploads are processed: the pipeline's limits, the bounded work pool, the per-client rate limit, and how
/// places are named.
struct UploadSettings: Sendable {
    var pipeline = PipelineOptions()
    var work = ImageWork()
    var limiter = UploadLimiter(perMinute: 30)
    var geocoder: (any Geocoding)?
}
