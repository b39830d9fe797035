import App
import Backend
import HatkClient

/// The embedded household's photos for the front's link previews, read from the blob store in this process.
struct EmbeddedPhotos: PhotoSource {
    let backend: EmbeddedBackend

    func image(at address: String) async throws -> [UInt8] {
        guard let bytes = try backend.photo(at: address) else {
            throw HatkError(kind: .http(status: 404, error: "image"), endpoint: "image", detail: "no photo of ours at \(address.prefix(200))")
        }
        return bytes
    }
}
