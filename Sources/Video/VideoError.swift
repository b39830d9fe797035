/// Why a clip cannot become a story, in a sentence a person can act on (it names the problem and the limit).
public struct VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file is larger than the accepted upload size.
        case tooLarge
        /// The clip is longer than the accepted length.
        case tooLong
        /// The picture is larger than the accepted width × height.
        case tooManyPixels
        /// The file holds no video stream (audio only, or not a video at all).
        case noVideoStream
        /// The video stream's codec is one the server does not read.
        case unsupportedCodec
        /// ffprobe or ffmpeg could not read the file: truncated, damaged, or lying about what it holds.
        case damaged
        /// Every processing slot is taken and the queue is full: try again in a few seconds.
        case busy
        /// The child ran past its wall-clock or CPU-time limit, or out of memory.
        case overLimits
        /// A processed clip that is not what the server makes (the backend's check of an uploaded MP4).
        case notOurFormat
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
