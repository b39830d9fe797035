/// Where the front gets a story's photo for the images it makes (link previews, blurred stand-ins, shared links): a
/// hatk's image host over HTTP (`HatkReader`), or the embedded household's blobs in this process.
public protocol PhotoSource: Sendable {
    /// The JPEG or PNG bytes at `address` (a view's `thumb` or `fullsize`).
    /// - Throws: `ReadError`: `notFound` when there is no such photo, `unavailable` when it cannot be fetched or is
    ///   not a JPEG or PNG.
    func image(at address: String) async throws(ReadError) -> [UInt8]
}
