import Imaging

/// How uploads are processed: the pipeline's limits, the bounded work pool, and how places are named.
struct UploadSettings: Sendable {
    var pipeline = PipelineOptions()
    var work = ImageWork()
    var geocoder: (any Geocoding)?
}
