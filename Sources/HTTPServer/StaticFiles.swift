import Foundation

/// Serves a directory of assets under a URL prefix, with content-hash fingerprinted URLs for long-lived caching.
///
/// `url(for: "js/progress.js")` gives `/static/js/progress.3fa2b1c0.js`. Fingerprinted URLs are cached for a year
/// as immutable; plain URLs (`/static/js/progress.js`) are revalidated every time through their ETag. Text assets
/// (CSS, JavaScript, SVG, JSON) are compressed once with brotli and gzip and served by `Accept-Encoding`, each
/// representation with its own ETag and `Vary: Accept-Encoding`. Hidden files, `..` segments and symlinks leading
/// out of the root are never served.
public struct StaticFiles: Sendable {
    /// The root directory, with symlinks resolved.
    public let root: String
    /// The URL prefix, such as `/static`.
    public let urlPrefix: String
    let index: StaticFileIndex

    /// Indexes and hashes every file under `root`.
    /// - Parameters:
    ///   - root: The directory to serve.
    ///   - urlPrefix: Where it is mounted; no trailing slash.
    ///   - watch: Re-check each file's modification time on use and pick up new files (for development).
    /// - Throws: `StaticFilesError` if `root` is not a directory.
    public init(root: String, urlPrefix: String = "/static", watch: Bool = false) throws(StaticFilesError) {
        guard let resolved = realpath(root, nil) else {
            throw StaticFilesError(description: "Static file root \(root) does not exist")
        }
        let realRoot = String(cString: resolved)
        free(resolved)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: realRoot, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StaticFilesError(description: "Static file root \(root) is not a directory")
        }
        self.root = realRoot
        self.urlPrefix = urlPrefix.hasSuffix("/") ? String(urlPrefix.dropLast()) : urlPrefix
        self.index = StaticFileIndex(root: realRoot, watch: watch)
    }

    /// The fingerprinted URL of a file relative to the root ("js/progress.js"), or its plain URL if the file is
    /// unknown.
    public func url(for relativePath: String) -> String {
        let relative = relativePath.hasPrefix("/") ? String(relativePath.dropFirst()) : relativePath
        guard let entry = index.entry(for: relative) else {
            return "\(urlPrefix)/\(relative)"
        }
        return "\(urlPrefix)/\(Self.fingerprinted(relative, entry.fingerprint))"
    }

    /// Serves the file `request.path` names under `urlPrefix`: 404 for anything missing or refused, 304 when
    /// `If-None-Match` matches.
    public func respond(to request: Request) -> Response {
        guard request.path.hasPrefix(urlPrefix + "/") else { return .text("Not Found", status: .notFound) }
        let relative = String(request.path.dropFirst(urlPrefix.count + 1))
        var cacheControl = "no-cache"
        var entry = index.entry(for: relative)
        if entry == nil, let (plain, fingerprint) = Self.splitFingerprint(relative),
            let current = index.entry(for: plain)
        {
            entry = current
            // An outdated fingerprint still gets the current file, but uncached: pages rendered before a deploy
            // keep working without pinning the new content under the old name.
            if current.fingerprint == fingerprint {
                cacheControl = "public, max-age=31536000, immutable"
            }
        }
        guard let entry else { return .text("Not Found", status: .notFound) }
        let contentType = Self.contentType(forFileName: entry.path)
        var response: Response
        let coding = Self.preferredCoding(request.headers.values("Accept-Encoding"), available: entry.variants.map(\.coding))
        if let variant = entry.variants.first(where: { $0.coding == coding }) {
            response = Response(headers: ["Cache-Control": cacheControl, "ETag": variant.etag])
            if let condition = request.headers["If-None-Match"], Response.entityTagList(condition, matches: variant.etag) {
                response.status = .notModified
            } else {
                response.headers["Content-Type"] = contentType
                response.headers["Content-Encoding"] = variant.coding.rawValue
                response.body = .bytes(variant.bytes)
            }
        } else {
            response = Response.file(
                at: entry.path, contentType: contentType, cacheControl: cacheControl, etag: entry.etag, for: request)
        }
        if !entry.variants.isEmpty {
            // Caches must key every representation of this URL, identity included, by the request's Accept-Encoding.
            response.headers["Vary"] = "Accept-Encoding"
        }
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
    }

    /// Registers `GET <urlPrefix>/*path` (HEAD follows) on a router or a route group.
    public func register(on routes: inout some RouteRegistry) {
        let files = self
        routes.on(.get, "\(urlPrefix)/*path") { request in files.respond(to: request) }
    }

    static func fingerprinted(_ relative: String, _ fingerprint: String) -> String {
        let slash = relative.lastIndex(of: "/").map { relative.index(after: $0) } ?? relative.startIndex
        guard let dot = relative[slash...].lastIndex(of: "."), dot > slash else {
            return "\(relative).\(fingerprint)"
        }
        return "\(relative[..<dot]).\(fingerprint)\(relative[dot...])"
    }

    /// Splits "js/progress.3fa2b1c0.js" into ("js/progress.js", "3fa2b1c0").
    static func splitFingerprint(_ relative: String) -> (String, String)? {
        let slash = relative.lastIndex(of: "/").map { relative.index(after: $0) } ?? relative.startIndex
        let parts = relative[slash...].split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        let position = parts.count >= 3 ? parts.count - 2 : 1
        let candidate = parts[position]
        guard candidate.utf8.count == 8, candidate.utf8.allSatisfy({ PercentDecoding.hexValue($0) != nil }) else {
            return nil
        }
        var plainParts = Array(parts)
        plainParts.remove(at: position)
        return (String(relative[..<slash]) + plainParts.joined(separator: "."), String(candidate).lowercased())
    }
}

/// Why a `StaticFiles` could not be created.
public struct StaticFilesError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the root.
    public let description: String
}
