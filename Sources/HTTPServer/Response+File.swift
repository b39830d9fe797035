import Foundation

extension Response {
    /// A regular file from disk, with conditional-request support.
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
        return Response(status: .ok, headers: headers, body: .file(path: path, length: size))
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
