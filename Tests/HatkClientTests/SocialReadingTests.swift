import ATProto
import Foundation
import HTTPServer
import HatkClient
import Lexicon
import Readers
import Synchronization
import Testing

/// The social reads over XRPC: what a remote hatk is asked for the viewer's comments, activity, mutes and blocks,
/// label definitions, and a view's images.
@Suite(.serialized)
struct SocialReadingTests {
    @Test("relationships page through getMutes and getBlocks (signed), keeping each block's URI; blockedBy stays unknown")
    func relationships() async throws {
        let log = RequestLog()
        let server = try StubServer { router in
            router.on(.get, "/xrpc/:nsid") { request in
                log.record(request)
                let cursor = request.query("cursor")
                switch (request.path, cursor) {
                case ("/xrpc/social.grain.unspecced.getMutes", nil):
                    return jsonBody(#"{"items":[{"did":"did:plc:a"},{"did":"did:plc:b"}],"cursor":"c1"}"#)
                case ("/xrpc/social.grain.unspecced.getMutes", "c1"):
                    return jsonBody(#"{"items":[{"did":"did:plc:c"}]}"#)
                case ("/xrpc/social.grain.unspecced.getBlocks", _):
                    return jsonBody(#"{"items":[{"did":"did:plc:d","blockUri":"at://did:plc:me/social.grain.graph.block/3k"}]}"#)
                default:
                    return jsonBody(#"{"error":"NotFound"}"#, status: .notFound)
                }
            }
        }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        let reader = client.reading(as: { credentials() })
        let relationships = try await reader.relationships()
        #expect(relationships.muted == ["did:plc:a", "did:plc:b", "did:plc:c"])
        #expect(relationships.blocking == ["did:plc:d": "at://did:plc:me/social.grain.graph.block/3k"])
        #expect(relationships.blockedBy.isEmpty)
        #expect(log.all.allSatisfy { $0.headers["Authorization"] == "DPoP token-abc" && $0.query("limit") == "100" })
        #expect(log.all.count == 3)
    }

    @Test("a server that pages forever is read five pages of mutes and five of blocks at most")
    func pagingEnds() async throws {
        let log = RequestLog()
        let server = try StubServer { router in
            router.on(.get, "/xrpc/:nsid") { request in
                log.record(request)
                return jsonBody(#"{"items":[{"did":"did:plc:\#(log.all.count)"}],"cursor":"x\#(log.all.count)"}"#)
            }
        }
        defer { Task { await server.server.shutdown() } }
        let reader = HatkClient(baseURL: server.url, policy: server.policy).reading(as: { credentials() })
        _ = try await reader.relationships()
        #expect(log.all.count == 10, "five pages of mutes and five of blocks at most")
    }

    @Test("label definitions come from describeLabels; comments and notifications with hatk's parameters")
    func reads() async throws {
        let log = RequestLog()
        let server = try StubServer { router in
            router.on(.get, "/xrpc/:nsid") { request in
                log.record(request)
                switch request.path {
                case "/xrpc/dev.hatk.describeLabels":
                    return jsonBody(#"{"definitions":[{"identifier":"spam","severity":"inform","blurs":"content","defaultSetting":"hide"}]}"#)
                case "/xrpc/social.grain.unspecced.getCommentThread": return jsonBody(#"{"comments":[],"totalCount":0}"#)
                default: return jsonBody(#"{"notifications":[],"unseenCount":4}"#)
                }
            }
        }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        #expect(try await client.reader.labelDefinitions().map(\.identifier) == ["spam"])
        let story = ATURI(authority: "did:plc:maya", collection: "social.grain.story", rkey: "3k")
        _ = try await client.reader.commentThread(on: story, limit: 20, cursor: "2026")
        #expect(log.last?.query("subject") == story.description && log.last?.query("cursor") == "2026")
        let count = try await client.reading(as: { credentials() }).notifications(limit: 1, cursor: nil, countOnly: true)
        #expect(count.unseenCount == 4 && log.last?.query("countOnly") == "true")
    }

    @Test("an image is fetched from a relative URL on the server, or an absolute one, only when it is a JPEG or PNG")
    func images() async throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        let server = try StubServer { router in
            router.on(.get, "/img/feed_thumbnail/:did/:cid") { _ in
                Response(status: .ok, headers: ["Content-Type": "image/jpeg"], body: .bytes(jpeg))
            }
            router.on(.get, "/page") { _ in Response(status: .ok, headers: ["Content-Type": "text/html"], body: .bytes(Array("<p>".utf8))) }
        }
        defer { Task { await server.server.shutdown() } }
        let client = HatkClient(baseURL: server.url, policy: server.policy)
        let photos = client.reader
        #expect(try await photos.image(at: "/img/feed_thumbnail/did:plc:a/bafy") == jpeg)
        #expect(try await photos.image(at: server.url.absoluteString + "/img/feed_thumbnail/did:plc:a/bafy") == jpeg)
        await #expect(throws: ReadError(.unavailable, endpoint: "image", detail: "not a JPEG or PNG image (text/html)")) {
            try await photos.image(at: "/page")
        }
        await #expect(throws: ReadError.self) { try await photos.image(at: "file:///etc/passwd") }
        do {
            _ = try await photos.image(at: "/img/feed_thumbnail/did:plc:a/missing/more")
            Issue.record("expected an error")
        } catch { #expect(error.kind == .notFound && error.status == 404, "\(error)") }
        // Another loopback address is not the configured upstream: refused by the address policy.
        await #expect(throws: ReadError.self) { try await photos.image(at: "http://127.0.0.2:9/x.jpg") }
    }
}
