/// A position from EXIF GPS tags, in signed decimal degrees (south and west negative).
public struct GPSCoordinate: Sendable, Equatable {
    /// -90...90, north positive.
    public var latitude: Double
    /// -180...180, east positive.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The few EXIF fields the server uses, each nil when absent or malformed.
///
/// GPS is transient: callers turn it into a coarse H3 cell and must never persist or log the raw coordinates.
public struct ExifMetadata: Sendable, Equatable {
    /// EXIF Orientation (tag 0x0112), 1–8.
    public var orientation: Int?
    /// GPS latitude and longitude, present only when both parsed cleanly and are in range.
    public var gps: GPSCoordinate?
    /// DateTimeOriginal (tag 0x9003), as written by the camera, e.g. `2024:05:01 13:45:10`.
    public var dateTimeOriginal: String?
    /// Camera maker (tag 0x010F).
    public var make: String?
    /// Camera model (tag 0x0110).
    public var model: String?

    public init(
        orientation: Int? = nil,
        gps: GPSCoordinate? = nil,
        dateTimeOriginal: String? = nil,
        make: String? = nil,
        model: String? = nil
    ) {
        self.orientation = orientation
        self.gps = gps
        self.dateTimeOriginal = dateTimeOriginal
        self.make = make
        self.model = model
    }
}
