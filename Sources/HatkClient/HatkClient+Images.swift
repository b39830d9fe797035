import Foundation
import Outbound

extension HatkClient {
    /// The largest image fetched for a preview: story blobs are at most 5,000,000 bytes.
    public static let maxImageBytes = 6_000_000

    /// The bytes of an image a view named (`thumb`, `fullsize`): a relative URL (the embedded household's `/img/…`)
    /// is fetched from this client's server, an absolute one from where it points (a remote hatk's image host, through
    /// the same address policy as every call). Only JPEG and PNG answers are returned.
    public func image(at address: String) async throws(HatkError) -> [UInt8] {
        let endpoint = "image"
        guard let url = URL(string: address, relativeTo: baseURL)?.absoluteURL, let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", url.host != nil
        else { throw HatkError(kind: .malformed, endpoint: endpoint, detail: "not an image URL: \(address.prefix(200))") }
        let request = OutboundRequest(url: url, headers: ["Accept": "image/jpeg, image/png"], timeout: transport.timeout)
        let (data, status, _, contentType) = try await transport.send(request, nsid: endpoint)
        guard (200..<300).contains(status) else { throw HatkError(kind: .http(status: status, error: "image"), endpoint: endpoint) }
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard ["image/jpeg", "image/png"].contains(type), data.count <= Self.maxImageBytes else {
            throw HatkError(kind: .malformed, endpoint: endpoint, detail: "not a JPEG or PNG image (\(type.isEmpty ? "no type" : type))")
        }
        return Array(data)
    }
}
