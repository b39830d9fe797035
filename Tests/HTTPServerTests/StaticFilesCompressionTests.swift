import ByteCompression
import Foundation
import Testing

@testable import HTTPServer

/// Text assets compressed once and served by Accept-Encoding.
struct StaticFilesCompressionTests {
    static let css = (0..<300).map { ".s\($0) { margin: \($0 % 9)px; padding: \($0 % 4)em; }\n" }.joined()
    static let js = (0..<200).map { "function f\($0)(x) { return x * \($0) + 1; }\n" }.joined()

    private func makeRoot() throws -> (TemporaryDirectory, StaticFiles) {
        let directory = try TemporaryDirectory()
        try directory.write("public/css/site.css", Self.css)
        try directory.write("public/js/viewer.js", Self.js)
        try directory.write("public/tiny.css", "a{}")
        try directory.write("public/logo.png", String(repeating: "p", count: 5000))
        return (directory, try StaticFiles(root: directory.path + "/public"))
    }

    private func get(_ files: StaticFiles, _ path: String, _ headers: HTTPHeaders = [:]) -> Response {
        files.respond(to: Request(method: .get, path: path, headers: headers))
    }

    private func bytes(_ response: Response) -> [UInt8] {
        guard case .bytes(let bytes) = response.body else { return [] }
        return bytes
    }

    @Test("CSS and JS go out as brotli or gzip by Accept-Encoding, with Vary and an ETag per representation")
    func negotiated() throws {
        // setup
        let (directory, files) = try makeRoot()

        // MUT
        let br = get(files, "/static/css/site.css", ["Accept-Encoding": "gzip, deflate, br"])
        let gzip = get(files, "/static/css/site.css", ["Accept-Encoding": "gzip"])
        let identity = get(files, "/static/css/site.css")
        let js = get(files, files.url(for: "js/viewer.js"), ["Accept-Encoding": "br"])

        // validate
        #expect(br.headers["Content-Encoding"] == "br")
        #expect(bytes(br) == (try Brotli.compress(Array(Self.css.utf8))))
        #expect(br.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(gzip.headers["Content-Encoding"] == "gzip")
        #expect(bytes(gzip) == (try Gzip.compress(Array(Self.css.utf8))))
        #expect(identity.headers["Content-Encoding"] == nil)
        guard case .file = identity.body else {
            Issue.record("identity should stream the file")
            return
        }
        for response in [br, gzip, identity] {
            #expect(response.headers["Vary"] == "Accept-Encoding")
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        }
        let tags = [br, gzip, identity].compactMap { $0.headers["ETag"] }
        #expect(Set(tags).count == 3, "\(tags)")
        #expect(tags[0].hasSuffix("-br\"") && tags[1].hasSuffix("-gz\""))
        #expect(js.headers["Content-Encoding"] == "br")
        #expect(js.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        _ = directory
    }

    @Test("If-None-Match revalidates each representation by its own tag")
    func conditional() throws {
        let (directory, files) = try makeRoot()
        let brTag = try #require(get(files, "/static/css/site.css", ["Accept-Encoding": "br"]).headers["ETag"])

        let same = get(files, "/static/css/site.css", ["Accept-Encoding": "br", "If-None-Match": brTag])
        let otherCoding = get(files, "/static/css/site.css", ["Accept-Encoding": "gzip", "If-None-Match": brTag])
        let weak = get(files, "/static/css/site.css", ["Accept-Encoding": "br", "If-None-Match": "W/\(brTag)"])

        #expect(same.status == .notModified)
        #expect(same.headers["ETag"] == brTag && same.headers["Vary"] == "Accept-Encoding")
        #expect(bytes(same).isEmpty && same.headers["Content-Encoding"] == nil)
        #expect(otherCoding.status == .ok && otherCoding.headers["Content-Encoding"] == "gzip")
        #expect(weak.status == .notModified)
        _ = directory
    }

    @Test("images and files that would not shrink are served as they are, without Vary")
    func notCompressed() throws {
        let (directory, files) = try makeRoot()

        for path in ["/static/logo.png", "/static/tiny.css"] {
            let response = get(files, path, ["Accept-Encoding": "br, gzip"])
            #expect(response.status == .ok, "\(path)")
            #expect(response.headers["Content-Encoding"] == nil, "\(path)")
            #expect(response.headers["Vary"] == nil, "\(path)")
        }
        _ = directory
    }

    @Test("Accept-Encoding q-values are honoured; ties go to the smaller coding; nothing acceptable means identity")
    func qValues() {
        let both: [StaticFiles.ContentCoding] = [.brotli, .gzip]
        let cases: [([String], StaticFiles.ContentCoding?)] = [
            ([], nil), ([""], nil), (["gzip"], .gzip), (["br"], .brotli), (["gzip, br"], .brotli), (["gzip", "br"], .brotli),
            (["br;q=0.5, gzip"], .gzip), (["br;q=0, gzip;q=0"], nil), (["*"], .brotli), (["*;q=0"], nil),
            (["identity;q=0, gzip;q=0.1"], .gzip), (["gzip;q=0.5, identity"], nil), (["x-gzip"], .gzip), (["BR"], .brotli),
            (["br;q=abc, gzip"], .gzip), (["deflate"], nil), (["br;q=1.5"], nil), (["gzip; Q=0.9 , br ;q=0.8"], .gzip),
            (["*;q=0.5, br;q=0"], .gzip), (["identity"], nil),
        ]
        for (header, expected) in cases {
            #expect(StaticFiles.preferredCoding(header, available: both) == expected, "\(header)")
        }
        #expect(StaticFiles.preferredCoding(["br"], available: [.gzip]) == nil)
        #expect(StaticFiles.preferredCoding(["br, gzip"], available: [.gzip]) == .gzip)
    }

    @Test("in watch mode an edited stylesheet is compressed again")
    func watchRecompresses() throws {
        let directory = try TemporaryDirectory()
        try directory.write("public/site.css", Self.css)
        let files = try StaticFiles(root: directory.path + "/public", watch: true)
        let before = bytes(get(files, "/static/site.css", ["Accept-Encoding": "gzip"]))

        let edited = Self.css + ".new { color: red; }\n"
        try directory.write("public/site.css", edited)
        let after = bytes(get(files, "/static/site.css", ["Accept-Encoding": "gzip"]))

        #expect(before == (try Gzip.compress(Array(Self.css.utf8))))
        #expect(after == (try Gzip.compress(Array(edited.utf8))))
    }
}

extension LiveTests {
    struct LiveStaticCompressionTests {
        /// `curl` with the given arguments; returns its standard output.
        private func curl(_ arguments: [String]) throws -> [UInt8] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-sS"] + arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Array(data)
        }

        @Test("curl decodes the brotli and gzip stylesheet to the file's bytes; HEAD gives the compressed length")
        func decodedByCurl() async throws {
            // setup
            let directory = try TemporaryDirectory()
            try directory.write("public/site.css", StaticFilesCompressionTests.css)
            let files = try StaticFiles(root: directory.path + "/public")
            var router = Router()
            files.register(on: &router)
            let live = try LiveServer.start(router)
            let port = live.port
            let url = "http://127.0.0.1:\(port)/static/site.css"

            // act
            let brotli = try await RawConnection.run { try curl(["--compressed", "-H", "Accept-Encoding: br", url]) }
            let gzip = try await RawConnection.run { try curl(["--compressed", "-H", "Accept-Encoding: gzip", url]) }
            let (head, get) = try await RawConnection.run {
                let connection = try RawConnection(port: port)
                connection.send("HEAD /static/site.css HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n")
                let head = try connection.readResponse(bodyExpected: false)
                connection.send("GET /static/site.css HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n")
                return (head, try connection.readResponse())
            }
            await live.stop()

            // validate
            let original = Array(StaticFilesCompressionTests.css.utf8)
            #expect(brotli == original)
            #expect(gzip == original)
            #expect(head.status == 200 && head.header("Content-Encoding") == "br")
            #expect(head.contentLength == (try Brotli.compress(original)).count)
            #expect(head.body.isEmpty)
            #expect(get.body == (try Brotli.compress(original)), "no stray HEAD body ahead of this response")
        }
    }
}
