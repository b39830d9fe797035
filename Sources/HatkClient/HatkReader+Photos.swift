import Foundation
import Outbound
public import Readers

extension HatkReader: PhotoSource {
    /// The largest image fetched for a preview: story blobs are at most 5,000,000 bytes.
    public static let maxImageBytes = 6_000_000

    /// The bytes of an image a view named (`thumb`, `fullsize`): a relative URL (the embedded household's `/img/…`)
    /// is fetched from this client's server, an absolute one from where it points (a remote hatk's image host, through
    /// the same address policy as every call). Only JPEG and PNG answers are returned. Never signed, never cached.
    public func image(at address: String) async throws(ReadError) -> [UInt8] {
        let endpoint = "image"
        guard let url = URL(string: address, relativeTo: transport.baseURL)?.absoluteURL, let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", url.host != nil
        else { throw ReadError(.invalidRequest, endpoint: endpoint, detail: "not an image URL: \(address.prefix(200))") }
        let request = OutboundRequest(url: url, headers: ["Accept": "image/jpeg, image/png"], timeout: transport.timeout)
        let answer: (data: Data, status: Int, contentType: String?)
        do {
            let (data, status, _, contentType) = try await transport.send(request, nsid: endpoint)
            answer = (data, status, contentType)
        } catch { throw ReadError(error) }
        guard (200..<300).contains(answer.status) else {
            throw ReadError(status: answer.status, error: "image", endpoint: endpoint, message: "")
        }
        let type =
            (answer.contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard ["image/jpeg", "image/png"].contains(type), answer.data.count <= Self.maxImageBytes else {
            throw ReadError(
                .unavailable, endpoint: endpoint, detail: "not a JPEG or PNG image (\(type.isEmpty ? "no type" : type))")
        }
        return Array(answer.data)
    }
}
