import App
import Backend
import Readers

/// The embedded household's photos for the front's link previews, read from the blob store in this process.
struct EmbeddedPhotos: PhotoSource {
    let backend: EmbeddedBackend

    func image(at address: String) async throws(ReadError) -> [UInt8] {
        let found: [UInt8]?
        do { found = try backend.photo(at: address) } catch {
            throw ReadError(.unavailable, endpoint: "image", detail: "reading the photo at \(address.prefix(200)) failed: \(error)")
        }
        guard let found else {
            throw ReadError(.notFound, endpoint: "image", status: 404, detail: "no photo of ours at \(address.prefix(200))")
        }
        return found
    }
}
