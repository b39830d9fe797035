import ATProto
import Crypto
import Foundation
import HTTPServer
import HatkClient
import Lexicon
import Readers
import Synchronization
import Testing

/// The requests a stand-in hatk received.
final class RequestLog: Sendable {
    private let requests = Mutex<[Request]>([])
    func record(_ request: Request) { requests.withLock { $0.append(request) } }
    var all: [Request] { requests.withLock { $0 } }
    var last: Request? { all.last }
    /// The last request's JSON body.
    var lastBody: JSONValue? { last.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.body.inMemory ?? [])) } }
}

func credentials() -> DPoPCredentials {
    DPoPCredentials(dpopKey: P256PrivateKey().rawRepresentation, accessToken: "token-abc")
}

@Suite(.serialized)
struct HatkClientSocialTests {
    let story = ATURI(authority: "did:plc:maya", collection: "social.grain.story", rkey: "3jzfcijpj2z2a")

    /// A stub answering every XRPC path with `answer` (or `{}`), recording each request.
    func stub(_ log: RequestLog, _ answer: @escaping @Sendable (Request) -> Response = { _ in jsonBody("{}") }) throws -> StubServer {
        try StubServer { router in
            router.on(.get, "/xrpc/:nsid") { request in
                log.record(request)
                return answer(request)
            }
            router.on(.post, "/xrpc/:nsid") { request in
                log.record(request)
                return answer(request)
            }
        }
    }

    @Test("favourite and unfavourite write and delete a social.grain.favorite record, signed with DPoP")
    func favorite() async throws {
        let log = RequestLog()
        let server = try stub(log) { request in
            request.path.hasSuffix("createRecord") ? jsonBody(#"{"uri":"at://did:plc:me/social.grain.favorite/3k","cid":"bafyrei"}"#) : jsonBody("{}")
        }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        let output = try await client.favorite(story, createdAt: "2026-08-19T12:00:00.000Z", as: credentials())
        #expect(output.uri == "at://did:plc:me/social.grain.favorite/3k")
        #expect(log.last?.path == "/xrpc/dev.hatk.createRecord")
        #expect(log.last?.headers["Authorization"] == "DPoP token-abc")
        #expect(log.last?.headers["DPoP"]?.isEmpty == false)
        #expect(
            log.lastBody
                == .object([
                    "collection": .string("social.grain.favorite"),
                    "record": .object([
                        "$type": .string("social.grain.favorite"), "subject": .string(story.description),
                        "createdAt": .string("2026-08-19T12:00:00.000Z"),
                    ]),
                ]))
        try await client.unfavorite(try ATURI(output.uri), as: credentials())
        #expect(log.last?.path == "/xrpc/dev.hatk.deleteRecord")
        #expect(log.lastBody == .object(["collection": .string("social.grain.favorite"), "rkey": .string("3k")]))

        let before = log.all.count
        await #expect(throws: HatkError.self) { try await client.unfavorite(story, as: credentials()) }
        #expect(log.all.count == before, "a story URI is never sent to be deleted as a favourite")
    }

    @Test("comments carry text, subject, facets and createdAt; the thread is read with subject, limit and cursor")
    func comments() async throws {
        let log = RequestLog()
        let thread =
            #"{"comments":[{"uri":"at://did:plc:a/social.grain.comment/1","cid":"bafy","author":{"cid":"","did":"did:plc:a","handle":"a.test"},"text":"hi","createdAt":"2026-08-19T12:00:00.000Z","favCount":2}],"cursor":"2026-08-19T12:00:00.000Z","totalCount":7}"#
        let server = try stub(log) { request in
            request.path.hasSuffix("getCommentThread")
                ? jsonBody(thread) : jsonBody(#"{"uri":"at://did:plc:me/social.grain.comment/3k","cid":"bafyrei"}"#)
        }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        let facet: JSONValue = .object(["index": .object(["byteStart": .integer(0), "byteEnd": .integer(2)]), "features": .array([])])
        _ = try await client.comment("hi", on: story, facets: [facet], createdAt: "2026-08-19T12:00:00.000Z", as: credentials())
        #expect(log.lastBody?["record"]?["text"] == .string("hi"))
        #expect(log.lastBody?["record"]?["subject"] == .string(story.description))
        #expect(log.lastBody?["record"]?["facets"] == .array([facet]))
        #expect(log.lastBody?["record"]?["replyTo"] == nil)

        let output = try await client.reader.commentThread(on: story, limit: 5, cursor: "2026-08-19T11:00:00.000Z")
        #expect(output.totalCount == 7 && output.comments.first?.favCount == 2)
        #expect(log.last?.query("subject") == story.description)
        #expect(log.last?.query("limit") == "5")
        #expect(log.last?.query("cursor") == "2026-08-19T11:00:00.000Z")
        #expect(log.last?.headers["Authorization"] == nil, "an anonymous read is not signed")
        _ = try await client.reading(as: { credentials() }).commentThread(on: story, limit: 20, cursor: nil)
        #expect(log.last?.headers["Authorization"] == "DPoP token-abc")
    }

    @Test("a report sends hatk's input, and hatk's 400 comes back with its message")
    func report() async throws {
        let log = RequestLog()
        let server = try stub(log) { request in
            let label = (try? JSONDecoder().decode(JSONValue.self, from: Data(request.body.inMemory ?? [])))?["label"]?.stringValue ?? ""
            if label == "ugly" { return jsonBody(#"{"error":"Unknown label: ugly"}"#, status: .badRequest) }
            return jsonBody(
                #"{"id":4,"subject":{"did":"did:plc:maya"},"label":"\#(label)","reason":null,"reportedBy":"did:plc:me","createdAt":"2026-08-19T12:00:00.000Z"}"#
            )
        }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        let output = try await client.createReport(.account(did: "did:plc:maya"), label: "spam", reason: nil, as: credentials())
        #expect(output.id == 4 && output.reason == nil, "hatk's reason: null decodes")
        #expect(log.lastBody?["subject"]?["did"] == .string("did:plc:maya"))
        #expect(log.lastBody?["reason"] == nil)
        _ = try await client.createReport(.record(uri: story.description, cid: "bafy"), label: "nudity", reason: "why", as: credentials())
        #expect(
            log.lastBody?["subject"]
                == .object(["$type": .string("com.atproto.repo.strongRef"), "uri": .string(story.description), "cid": .string("bafy")]))
        #expect(log.lastBody?["reason"] == .string("why"))
        do {
            _ = try await client.createReport(.account(did: "did:plc:maya"), label: "ugly", reason: nil, as: credentials())
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .http(status: 400, error: "Unknown label: ugly"))
            #expect(!error.needsSignIn)
        }
    }

    @Test("the label definitions come from describeLabels, or none for a server that sends {}")
    func describeLabels() async throws {
        let log = RequestLog()
        let body = Mutex(#"{"definitions":[{"identifier":"nudity","severity":"inform","blurs":"media","defaultSetting":"warn"}]}"#)
        let server = try stub(log) { _ in jsonBody(body.withLock { $0 }) }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        let definitions = try await client.reader.labelDefinitions()
        #expect(LabelPolicy(definitions: definitions).resolve(values: ["nudity"]).action == .warnMedia)
        body.withLock { $0 = "{}" }
        #expect(try await client.reader.labelDefinitions().isEmpty)
    }

    @Test("a 200 text/html answer (an unknown method on a hatk with a web app) is never parsed, even if it looks like JSON")
    func htmlForUnknownMethod() async throws {
        let log = RequestLog()
        let server = try stub(log) { _ in
            Response(status: .ok, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(Array(#"{"notifications":[]}"#.utf8)))
        }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        do {
            _ = try await client.reading(as: { credentials() }).notifications(limit: 20, cursor: nil, countOnly: false)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unsupported && error.detail.contains("text/html; charset=utf-8"), "\(error)")
            #expect(!error.isTransient)
        }
        await #expect(throws: HatkError.self) { try await client.markStoriesViewed([story], as: credentials()) }
        await #expect(throws: ReadError.self) { _ = try await client.reader.storyAuthors() }
    }

    @Test("hatk's Authentication required, as a 500 or a 400, and ScopeMissingError mean: sign in again")
    func signInAgain() async throws {
        let log = RequestLog()
        let server = try stub(log) { request in
            switch request.path {
            case "/xrpc/social.grain.graph.muteActor": return jsonBody(#"{"error":"Authentication required"}"#, status: .internalServerError)
            case "/xrpc/social.grain.unspecced.getMutes": return jsonBody(#"{"error":"Authentication required"}"#, status: .badRequest)
            case "/xrpc/dev.hatk.createRecord": return jsonBody(#"{"error":"ScopeMissingError","handle":"me.test"}"#, status: .unauthorized)
            default: return jsonBody(#"{"error":"Database is locked"}"#, status: .internalServerError)
            }
        }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        let me = try DID("did:plc:maya")
        let calls: [(String, @Sendable () async throws -> Void)] = [
            ("mute", { try await client.muteActor(me, as: credentials()) }),
            ("block", { _ = try await client.block(me, createdAt: "2026-08-19T12:00:00.000Z", as: credentials()) }),
        ]
        for (name, call) in calls {
            do {
                try await call()
                Issue.record("\(name): expected an error")
            } catch {
                let error = try #require(error as? HatkError)
                #expect(error.needsSignIn, "\(name)")
                #expect(!error.isTransient, "\(name): retrying will not help")
            }
        }
        do {
            _ = try await client.reading(as: { credentials() }).mutes(limit: 50, cursor: nil)
            Issue.record("mutes: expected an error")
        } catch {
            #expect(error.kind == .signInRequired && !error.isTransient, "a read's 400 Authentication required: \(error)")
        }
        do {
            try await client.unmuteActor(me, as: credentials())
        } catch {
            #expect(!error.needsSignIn && error.isTransient, "a real 500 is not a sign-in problem")
        }
    }

    @Test("markStoriesViewed sends at most 100 URIs per call, each once")
    func viewedBatches() async throws {
        let log = RequestLog()
        let server = try stub(log)
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        let uris = (0..<250).map { ATURI(authority: "did:plc:maya", collection: "social.grain.story", rkey: "3jzfcijpj2z\(String($0, radix: 36))") }
        try await client.markStoriesViewed(uris + uris.prefix(10), as: credentials())
        let sizes = log.all.compactMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.body.inMemory ?? []))["stories"] }.compactMap {
            value -> Int? in
            if case .array(let items) = value { return items.count }
            return nil
        }
        #expect(sizes == [100, 100, 50])
    }

    @Test("notifications are read signed with limit, cursor and countOnly; seen is the lastSeenNotifications preference")
    func notifications() async throws {
        let log = RequestLog()
        let server = try stub(log) { request in
            request.method == .get
                ? jsonBody(
                    #"{"notifications":[{"uri":"at://did:plc:a/social.grain.favorite/1","reason":"story-favorite","createdAt":"2026-08-19T12:00:00.000Z","author":{"cid":"","did":"did:plc:a","handle":"a.test"},"storyUri":"at://did:plc:me/social.grain.story/1","storyThumb":"https://x/t"}],"unseenCount":3}"#
                )
                : jsonBody(#"{"success":true}"#)
        }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        let output = try await client.reading(as: { credentials() }).notifications(limit: 10, cursor: "c", countOnly: true)
        #expect(output.unseenCount == 3 && output.notifications.first?.reason == NotificationReason.storyFavorite)
        #expect(log.last?.query("countOnly") == "true" && log.last?.query("limit") == "10" && log.last?.query("cursor") == "c")
        try await client.markNotificationsSeen(at: "2026-08-19T12:30:00.000Z", as: credentials())
        #expect(log.last?.path == "/xrpc/dev.hatk.putPreference")
        #expect(log.lastBody == .object(["key": .string("lastSeenNotifications"), "value": .string("2026-08-19T12:30:00.000Z")]))
    }

    @Test("signed reads are never served from the read cache; anonymous ones are")
    func signedReadsUncached() async throws {
        let log = RequestLog()
        let server = try stub(log) { _ in jsonBody(#"{"authors":[]}"#) }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, cacheTTL: .seconds(60), policy: server.policy)
        _ = try await client.reader.storyAuthors()
        _ = try await client.reader.storyAuthors()
        #expect(log.all.count == 1)
        _ = try await client.reading(as: { credentials() }).storyAuthors()
        _ = try await client.reading(as: { credentials() }).storyAuthors()
        #expect(log.all.count == 3)
    }

    @Test("a signed read answered with a use_dpop_nonce challenge is retried once with the server's nonce")
    func signedReadNonceRetry() async throws {
        let log = RequestLog()
        let server = try stub(log) { request in
            let proof = request.headers["DPoP"] ?? ""
            let payload = proof.split(separator: ".").dropFirst().first.flatMap { Base64URL.decode(String($0)) } ?? []
            if String(decoding: payload, as: UTF8.self).contains("\"nonce\":\"n-1\"") { return jsonBody(#"{"authors":[]}"#) }
            var response = jsonBody(#"{"error":"use_dpop_nonce"}"#, status: .unauthorized)
            response.headers["WWW-Authenticate"] = #"DPoP error="use_dpop_nonce""#
            response.headers["DPoP-Nonce"] = "n-1"
            return response
        }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        #expect(try await client.reading(as: { credentials() }).storyAuthors().isEmpty)
        #expect(log.all.count == 2)
    }
}
