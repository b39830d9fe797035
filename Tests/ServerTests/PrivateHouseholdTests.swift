import ATProto
import App
import Backend
import Foundation
import HTTPServer
import HatkClient
import Readers
import Server
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A household server keeps its stories to the signed-in (`--visibility household`, the default): asked by a
/// stranger, every route the server has answers nothing of the household.
@Suite struct PrivateHouseholdTests {
    /// What a stranger must never read: every member's name, handle and DID, every story's record key and photo CID,
    /// every place name, found by reading the household in process.
    struct Canaries {
        var words: Set<String> = []
        var did = "", rkey = "", cid = "", handle = "", uri = ""
        var images: [String] = []

        init(_ backend: EmbeddedBackend) throws {
            let queries = backend.queries
            let authors = try Self.json(try queries.storyAuthors(viewer: nil, imageBase: ""))
            collect(authors)
            for did in Self.strings(authors, key: "did") {
                guard let parsed = DID.parse(did) else { continue }
                collect(try Self.json(try queries.stories(of: parsed, viewer: nil, imageBase: "")))
                collect(try Self.json(try queries.actorProfile(did, viewer: nil, imageBase: "")))
            }
            words = words.filter { $0.count >= 4 }
            did = Self.strings(authors, key: "did").first ?? ""
            handle = Self.strings(authors, key: "handle").first ?? ""
        }

        private mutating func collect(_ value: Any) {
            for key in ["did", "handle", "displayName", "cid"] { words.formUnion(Self.strings(value, key: key)) }
            for uri in Self.strings(value, key: "uri") where uri.contains("/social.grain.story/") {
                self.uri = uri
                rkey = String(uri.split(separator: "/").last ?? "")
                words.insert(rkey)
            }
            for name in Self.strings(value, key: "name") { words.insert(name) }
            for image in Self.strings(value, key: "fullsize") + Self.strings(value, key: "thumb") + Self.strings(value, key: "avatar")
            where image.hasPrefix("/img/") {
                images.append(image)
                let parts = image.split(separator: "/")
                cid = String(parts.last ?? "")
                words.insert(cid)
            }
        }

        static func json(_ value: some Encodable) throws -> Any {
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
        }

        /// Every string under `key` anywhere in a JSON value.
        static func strings(_ value: Any, key: String) -> [String] {
            if let object = value as? [String: Any] {
                return object.flatMap { name, inner in (name == key ? [inner as? String].compactMap { $0 } : []) + strings(inner, key: key) }
            }
            if let array = value as? [Any] { return array.flatMap { strings($0, key: key) } }
            return []
        }
    }

    /// One answer, as bytes.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func send(_ method: String, _ url: String, cookie: String? = nil, headers: [String: String] = [:]) async throws -> Answer {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if method == "POST" {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data("a=b".utf8)
        }
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields { headers[String(describing: name).lowercased()] = String(describing: value) }
        return Answer(status: http.statusCode, headers: headers, body: data)
    }

    /// Every request a route's pattern stands for, its parameters filled with the household's real values (each
    /// image preset, each XRPC query the backend has, and one it does not).
    static func requests(for pattern: String, _ canaries: Canaries) -> [String] {
        var paths = [""]
        for segment in pattern.split(separator: "/", omittingEmptySubsequences: true) {
            let values: [String]
            switch segment {
            case ":did": values = [canaries.did]
            case ":rkey": values = [canaries.rkey]
            case ":actor": values = [canaries.handle, canaries.did]
            case ":cid": values = [canaries.cid]
            case ":preset": values = BlobStore.Preset.allCases.map(\.rawValue)
            case ":years": values = ["1", "2"]
            case ":token": values = ["not-a-token"]
            case ":nsid": values = Self.queries
            default:
                if segment.hasPrefix(":") || segment.hasPrefix("*") { values = ["x"] } else { values = [String(segment)] }
            }
            paths = paths.flatMap { path in values.map { path + "/" + $0 } }
        }
        let query =
            "?actor=\(canaries.did)&did=\(canaries.did)&cid=\(canaries.cid)&story=\(canaries.uri)&uri=\(canaries.uri)"
            + "&handle=\(canaries.handle)&authors=\(canaries.handle)&memories=1&show=1&i=0"
        return paths.flatMap { [$0.isEmpty ? "/" : $0, ($0.isEmpty ? "/" : $0) + query] }
    }

    /// The embedded backend's XRPC queries, and one it does not have.
    static let queries = [
        "social.grain.unspecced.getStoryAuthors", "social.grain.unspecced.getStories", "social.grain.unspecced.getStory",
        "social.grain.unspecced.getStoryArchive", "social.grain.unspecced.getActorProfile", "social.grain.unspecced.getCommentThread",
        "social.grain.unspecced.getNotifications", "social.grain.unspecced.getMutes", "dev.hatk.getPreferences", "dev.hatk.describeLabels",
        "dev.hatk.getRecord", "com.atproto.sync.getBlob", "com.atproto.identity.resolveHandle", "social.grain.unspecced.madeUp",
    ]

    /// What is wrong with an answer to a stranger: a canary the request did not itself carry, image bytes, or a CORS
    /// header that lets any site read it.
    static func leaks(_ answer: Answer, request: String, _ canaries: Canaries) -> [String] {
        var found: [String] = []
        let text = answer.text + " " + answer.headers.values.joined(separator: " ")
        for word in canaries.words where !request.contains(word) && text.contains(word) { found.append("holds \(word)") }
        if (answer.headers["content-type"] ?? "").hasPrefix("image/") { found.append("is an image") }
        if answer.body.starts(with: [0xFF, 0xD8, 0xFF]) || answer.body.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            found.append("is image bytes")
        }
        // OAuth's own documents and endpoints answer any origin, as the protocol has browser clients fetch them; they
        // hold nothing of the household.
        let oauth = ["/.well-known/oauth-", "/oauth/", "/oauth-client-metadata.json"].contains { request.hasPrefix($0) }
        if !oauth, answer.headers["access-control-allow-origin"] == "*" { found.append("carries Access-Control-Allow-Origin: *") }
        return found
    }

    /// Asks every route of `live` as a stranger (or as whoever `cookie` makes the asker), with the household's real
    /// values; returns what leaked where `mayShow` says nothing may, every answer's status, and how many requests were
    /// made.
    static func walk(
        _ live: LiveApp, _ canaries: Canaries, cookie: String? = nil, mayShow: (String) -> Bool = { _ in false }
    ) async throws -> (problems: [String], statuses: [String: Int], asked: Int) {
        var problems: [String] = []
        var statuses: [String: Int] = [:]
        var asked = 0
        for route in live.app.routeTable {
            for path in Self.requests(for: route.pattern, canaries) {
                let methods = route.method == .get ? ["GET", "HEAD"] : [route.method.rawValue]
                for method in methods {
                    let answer = try await Self.send(method, live.base + path, cookie: cookie)
                    asked += 1
                    statuses["\(method) \(path)"] = answer.status
                    if answer.status >= 500 { problems.append("\(method) \(path) answered \(answer.status)") }
                    guard !mayShow(path) else { continue }
                    problems += Self.leaks(answer, request: path, canaries).map { "\(method) \(path) (\(answer.status)) \($0)" }
                }
            }
        }
        for image in canaries.images where !mayShow(image) {
            let answer = try await Self.send("GET", live.base + image, cookie: cookie)
            problems += Self.leaks(answer, request: "", canaries).map { "GET \(image) (\(answer.status)) \($0)" }
        }
        return (problems, statuses, asked)
    }

    @Test("a stranger asking every route of a household server, with the household's own names, ids and photos, gets none of them back")
    func strangerGetsNothing() async throws {
        let live = try await LiveApp(visibility: .household)
        defer { Task { await live.stop() } }
        let canaries = try Canaries(try #require(live.app.backend))
        #expect(canaries.words.count > 20 && !canaries.images.isEmpty && !canaries.rkey.isEmpty, "the household has stories to hide")
        let (problems, _, asked) = try await Self.walk(live, canaries)
        #expect(asked > 200, "every route was asked")
        #expect(problems == [], "\(problems.count) answers gave a stranger something:\n\(problems.prefix(40).joined(separator: "\n"))")
    }

    @Test("the same walk over a public server finds its members, stories, places and photos: the walk can tell")
    func theWalkSeesAPublicHousehold() async throws {
        let live = try await LiveApp(visibility: .public)
        defer { Task { await live.stop() } }
        let canaries = try Canaries(try #require(live.app.backend))
        let (problems, _, _) = try await Self.walk(live, canaries)
        for kind in ["holds did:plc:", "is image bytes", "Access-Control-Allow-Origin: *"] {
            #expect(problems.contains { $0.contains(kind) }, "a public server's answers: \(kind)")
        }
        #expect(problems.contains { $0.hasPrefix("GET / ") && $0.contains("holds") }, "the strip names the household")
    }

    @Test("a stranger at / gets the front door, a deep link sends them to sign in; signed in, they see the household, its photos private to them")
    func frontDoorThenTheHousehold() async throws {
        let live = try await LiveApp(visibility: .household)
        defer { Task { await live.stop() } }
        let canaries = try Canaries(try #require(live.app.backend))
        let browser = Browser(base: live.base)

        let door = try await browser.get("/")
        #expect(door.status == 200 && door.body.contains("data-front-door") && door.body.contains("href=\"/login\""))
        #expect(!door.body.contains("data-strip") && !door.body.contains("<img"), "no strip and no image at the front door")
        let profile = try await browser.get("/profile/\(canaries.handle)")
        #expect(profile.status == 302 && profile.location == "/login?next=/profile/\(canaries.handle)")
        let api = try await browser.get("/api/stories/\(canaries.did)")
        #expect(api.status == 401 && api.body.contains("\"error\""), "the scripts' JSON: \(api.status) \(api.body.prefix(200))")

        try await browser.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        let home = try await Self.send("GET", live.base + "/", cookie: "gs_session=\(try #require(browser.cookie("gs_session")))")
        #expect(home.status == 200 && home.text.contains("data-strip") && !home.text.contains("data-front-door"))
        #expect(home.headers["cache-control"] == "no-store", "a member's page is kept by no cache")
        let photo = try await Self.send("GET", live.base + canaries.images[0], cookie: "gs_session=\(try #require(browser.cookie("gs_session")))")
        #expect(photo.status == 200 && (photo.headers["content-type"] ?? "").hasPrefix("image/"))
        #expect((photo.headers["cache-control"] ?? "").hasPrefix("private"), "\(photo.headers["cache-control"] ?? "none")")
        #expect(photo.headers["access-control-allow-origin"] == nil)
    }

    @Test("an XRPC read of a household server needs a token of its own authorization server; with one it answers, without CORS")
    func xrpcReadsNeedAToken() async throws {
        let live = try await LiveApp(visibility: .household)
        defer { Task { await live.stop() } }
        let anonymous = try await Self.send("GET", live.base + "/xrpc/social.grain.unspecced.getStoryAuthors")
        #expect(anonymous.status == 401 && !anonymous.text.contains("maya"), "\(anonymous.status) \(anonymous.text.prefix(300))")
        let (client, credentials) = try await signInForWrites(base: live.base, handle: "maya.home.test", password: "maya-stories")
        let authors = try await client.reading(as: { credentials }).storyAuthors()
        #expect(!authors.isEmpty, "a member's client reads the household")
        let raw = try await Self.send("OPTIONS", live.base + "/xrpc/social.grain.unspecced.getStoryAuthors")
        #expect(raw.headers["access-control-allow-origin"] == nil, "no CORS for a household's reads")
    }
}
