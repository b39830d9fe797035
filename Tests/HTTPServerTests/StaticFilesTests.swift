import Foundation
import FoundationNetworking
import Testing

@testable import HTTPServer

struct StaticFilesTests {
    /// A root with a few assets, a hidden file, a secret next to the root, and symlinks in and out of it.
    private func makeRoot() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        try directory.write("outside/secret.txt", "top secret")
        try directory.write("public/js/progress.js", "console.log('progress')")
        try directory.write("public/css/site.css", "body{}")
        try directory.write("public/app.webmanifest", "{}")
        try directory.write("public/img/logo.svg", "<svg/>")
        try directory.write("public/.env", "TOKEN=1")
        try FileManager.default.createSymbolicLink(
            atPath: directory.path + "/public/leak.txt", withDestinationPath: directory.path + "/outside/secret.txt")
        try FileManager.default.createSymbolicLink(
            atPath: directory.path + "/public/alias.css", withDestinationPath: directory.path + "/public/css/site.css")
        return (directory, directory.path + "/public")
    }

    private func get(_ files: StaticFiles, _ path: String, headers: HTTPHeaders = [:]) -> Response {
        files.respond(to: Request(method: .get, path: path, headers: headers))
    }

    private func contents(_ response: Response) throws -> String {
        guard case .file(let path, _, let length) = response.body else { return "" }
        let data = try #require(FileManager.default.contents(atPath: path))
        #expect(Int64(data.count) == length)
        return String(decoding: data, as: UTF8.self)
    }

    @Test("url(for:) inserts an 8-hex content fingerprint, and that URL is served as immutable")
    func fingerprintedURL() throws {
        // setup
        let (directory, root) = try makeRoot()
        let files = try StaticFiles(root: root)
        var hasher = FNV1a()
        hasher.combine(Array("console.log('progress')".utf8))

        // MUT
        let url = files.url(for: "js/progress.js")
        let response = get(files, url)

        // validate
        #expect(url == "/static/js/progress.\(hasher.fingerprint).js")
        #expect(response.status == .ok)
        #expect(response.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(response.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(try contents(response) == "console.log('progress')")
        #expect(files.url(for: "nope.js") == "/static/nope.js")
        _ = directory
    }

    @Test("the plain URL is served with no-cache and an ETag, and a matching If-None-Match gets 304")
    func plainURLRevalidates() throws {
        let (directory, root) = try makeRoot()
        let files = try StaticFiles(root: root)

        let first = get(files, "/static/css/site.css")
        let etag = try #require(first.headers["ETag"])
        let second = get(files, "/static/css/site.css", headers: ["If-None-Match": etag])
        let other = get(files, "/static/css/site.css", headers: ["If-None-Match": "\"something-else\""])

        #expect(first.headers["Cache-Control"] == "no-cache")
        #expect(etag.hasPrefix("\"") && etag.count == 18)
        #expect(second.status == .notModified)
        #expect(second.headers["ETag"] == etag)
        guard case .empty = second.body else {
            Issue.record("a 304 must not carry a body")
            return
        }
        #expect(other.status == .ok)
        _ = directory
    }

    @Test("traversal, hidden files and symlinks out of the root are refused with 404")
    func refusesEscapes() throws {
        let (directory, root) = try makeRoot()
        for watch in [false, true] {
            let files = try StaticFiles(root: root, watch: watch)
            for path in [
                "/static/../outside/secret.txt", "/static/js/../../outside/secret.txt", "/static/.env",
                "/static/leak.txt", "/static//js/progress.js", "/static/js/./progress.js", "/static/js\\progress.js",
                "/static/js/progress.js\0", "/static/", "/other/js/progress.js",
            ] {
                #expect(get(files, path).status == .notFound, "\(path) watch: \(watch)")
            }
            #expect(get(files, "/static/alias.css").status == .ok)
        }
        _ = directory
    }

    @Test("content types follow the file extension")
    func contentTypes() {
        let expected = [
            "a.css": "text/css; charset=utf-8", "a.js": "text/javascript; charset=utf-8",
            "a.mjs": "text/javascript; charset=utf-8", "a.svg": "image/svg+xml", "a.png": "image/png",
            "a.jpg": "image/jpeg", "a.JPEG": "image/jpeg", "a.webp": "image/webp", "a.ico": "image/x-icon",
            "a.json": "application/json", "a.webmanifest": "application/manifest+json", "a.woff2": "font/woff2",
            "a.txt": "text/plain; charset=utf-8", "a.html": "text/html; charset=utf-8",
            "a.bin": "application/octet-stream",
            "Makefile": "application/octet-stream",
        ]
        for (name, type) in expected {
            #expect(StaticFiles.contentType(forFileName: name) == type, "\(name)")
        }
    }

    @Test("an outdated fingerprint still serves the current file, but without long-lived caching")
    func staleFingerprint() throws {
        let (directory, root) = try makeRoot()
        let files = try StaticFiles(root: root)

        let response = get(files, "/static/js/progress.00000000.js")

        #expect(response.status == .ok)
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(try contents(response) == "console.log('progress')")
        _ = directory
    }

    @Test("in watch mode an edited file gets a new fingerprint and a new file is picked up; without it neither")
    func watchPicksUpChanges() throws {
        let (directory, root) = try makeRoot()
        let watching = try StaticFiles(root: root, watch: true)
        let fixed = try StaticFiles(root: root)
        let before = watching.url(for: "js/progress.js")

        try directory.write("public/js/progress.js", "console.log('progress, edited')")
        try directory.write("public/js/new.js", "new")
        let after = watching.url(for: "js/progress.js")

        #expect(after != before)
        #expect(try contents(get(watching, after)) == "console.log('progress, edited')")
        #expect(get(watching, after).headers["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(get(watching, "/static/js/new.js").status == .ok)
        #expect(fixed.url(for: "js/progress.js") == before)
        #expect(get(fixed, "/static/js/new.js").status == .notFound)
    }

    @Test("registered on a router, files are served over HTTP for GET and HEAD")
    func servedLive() async throws {
        let (directory, root) = try makeRoot()
        let files = try StaticFiles(root: root)
        var router = Router()
        files.register(on: &router)
        let live = try LiveServer.start(router)

        let (status, response, data) = try await live.fetch(files.url(for: "img/logo.svg"))
        let (headStatus, headResponse, headData) = try await live.fetch("/static/img/logo.svg", method: "HEAD")
        await live.stop()

        #expect(status == 200)
        #expect(String(decoding: data, as: UTF8.self) == "<svg/>")
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/svg+xml")
        #expect(response.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff")
        #expect(headStatus == 200)
        #expect(headResponse.value(forHTTPHeaderField: "Content-Length") == "6")
        #expect(headData.isEmpty)
        _ = directory
    }

    @Test("a root that is not a directory is rejected")
    func badRoot() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("file.txt", "x")
        #expect(throws: StaticFilesError.self) { try StaticFiles(root: directory.path + "/missing") }
        #expect(throws: StaticFilesError.self) { try StaticFiles(root: file) }
    }
}
