import Foundation

extension Response {
    /// A regular file from disk, with conditional requests (`If-None-Match` gives 304) and single byte ranges (`Range`
    /// gives 206 or 416, `If-Range` with another tag gives the whole file): video players, Safari's above all, ask
    /// for parts.
    ///
    /// - Parameters:
    ///   - path: The file's absolute path; anything but a readable regular file gives 404.
    ///   - contentType: The `Content-Type` value.
    ///   - cacheControl: The `Cache-Control` value.
    ///   - etag: A quoted entity tag; when the request's `If-None-Match` lists it (or `*`), the answer is 304.
    ///   - request: The request, for `If-None-Match`.
    public static func file(
        at path: String,
        contentType: String,
        cacheControl: String,
        etag: String?,
        for request: Request
    ) -> Response {
        guard let size = regularFileSize(atPath: path) else {
            return text("Not Found", status: .notFound)
        }
        var headers: HTTPHeaders = ["Cache-Control": cacheControl]
        if let etag {
            headers["ETag"] = etag
            if let condition = request.headers["If-None-Match"], entityTagList(condition, matches: etag) {
                return Response(status: .notModified, headers: headers)
            }
        }
        headers["Content-Type"] = contentType
        headers["Accept-Ranges"] = "bytes"
        // A range is served only of the representation the client already has part of (RFC 9110 §13.1.5: If-Range
        // compares strongly, and a date is not a validator we give).
        let sameRepresentation = request.headers["If-Range"].map { etag != nil && $0[...].trimmingASCIISpaces() == etag! } ?? true
        switch sameRepresentation ? ByteRange(request.headers["Range"], size: size) : .whole {
        case .whole:
            return Response(status: .ok, headers: headers, body: .file(path: path, length: size))
        case .part(let bytes):
            headers["Content-Range"] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(size)"
            return Response(
                status: .partialContent, headers: headers,
                body: .file(path: path, offset: bytes.lowerBound, length: bytes.upperBound - bytes.lowerBound + 1))
        case .unsatisfiable:
            return Response(
                status: .rangeNotSatisfiable,
                headers: ["Cache-Control": cacheControl, "Content-Range": "bytes */\(size)", "Accept-Ranges": "bytes"])
        }
    }

    /// Compares with the weak comparison RFC 9110 prescribes for `If-None-Match`: a `W/` prefix is ignored.
    static func entityTagList(_ list: String, matches etag: String) -> Bool {
        let wanted = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        return list.split(separator: ",").contains { item in
            let tag = item.trimmingASCIISpaces()
            return tag == "*" || (tag.hasPrefix("W/") ? tag.dropFirst(2) : tag) == wanted
        }
    }

    static func regularFileSize(atPath path: String) -> Int64? {
        var info = stat()
        guard !path.contains("\0"), stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }
}
