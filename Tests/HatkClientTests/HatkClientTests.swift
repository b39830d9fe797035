import ATProto
import Foundation
import HTTPServer
import HatkClient
import Lexicon
import Outbound
import Readers
import Synchronization
import Testing

/// A stand-in hatk server on 127.0.0.1 whose answers each test chooses.
struct StubServer {
    let server: HTTPServer
    var url: URL { URL(string: "http://127.0.0.1:\(server.port)")! }
    /// The production policy plus this stub's origin, as the App allows its configured upstream.
    var policy: AddressPolicy { AddressPolicy.publicOnly.allowing([url]) }

    init(_ configure: (inout Router) -> Void) throws {
        var router = Router()
        configure(&router)
        var configuration = ServerConfiguration()
        configuration.port = 0
        server = HTTPServer(configuration: configuration, router: router)
        try server.start()
    }
}

/// A JSON response from literal text.
func jsonBody(_ text: String, status: HTTPStatus = .ok) -> Response {
    Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(Array(text.utf8)))
}

@Suite(.serialized)
struct HatkClientTests {
    @Test("queries send their parameters and decode the lexicon output")
    func decodesOutput() async throws {
        let stub = try StubServer { router in
            router.on(.get, "/xrpc/social.grain.unspecced.getStoryArchive") { request in
                let actor = request.query("actor") ?? ""
                let cursor = request.query("cursor") ?? ""
                let body =
                    #"{"cursor":"\#(cursor)","stories":[{"uri":"at://\#(actor)/social.grain.story/3jzfcijpj2z2a","cid":"bafyreib","creator":{"cid":"","did":"\#(actor)","handle":"a.test"},"thumb":"https://x/t","fullsize":"https://x/f","aspectRatio":{"width":3,"height":4},"createdAt":"2026-08-19T21:03:11.123Z","expired":false}]}"#
                return jsonBody(body)
            }
        }
        defer { Task { await stub.server.shutdown() } }
        let client = HatkClient(baseURL: stub.url, policy: stub.policy)
        let output = try await client.reader.storyArchive(of: try DID("did:plc:abc"), limit: 5, cursor: "2026-08-19T21:03:11.123+02:00")
        #expect(output.cursor == "2026-08-19T21:03:11.123+02:00", "a + in a parameter arrives intact")
        let stories = output.stories
        #expect(stories.count == 1)
        #expect(stories[0].creator.did == "did:plc:abc")
        #expect(stories[0].rkey == "3jzfcijpj2z2a")
        #expect(stories[0].aspectRatio == AspectRatio(width: 3, height: 4))
    }

    @Test("an error status becomes an http error carrying hatk's error string")
    func httpError() async throws {
        let stub = try StubServer { router in
            router.on(.get, "/xrpc/social.grain.unspecced.getStoryAuthors") { _ in
                jsonBody(#"{"error":"Database is locked"}"#, status: .internalServerError)
            }
        }
        defer { Task { await stub.server.shutdown() } }
        do {
            _ = try await HatkClient(baseURL: stub.url, policy: stub.policy).reader.storyAuthors()
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unavailable && error.status == 500 && error.detail.contains("Database is locked"))
            #expect(error.isTransient)
        }
    }

    @Test("a 2xx JSON answer that is not the expected shape is malformed; an HTML one is not JSON at all")
    func malformedJSON() async throws {
        let stub = try StubServer { router in
            router.on(.get, "/xrpc/social.grain.unspecced.getStoryAuthors") { _ in jsonBody(#"{"authors":"none"}"#) }
            router.on(.get, "/xrpc/social.grain.unspecced.getStories") { _ in Response.html("<html>oops</html>") }
        }
        defer { Task { await stub.server.shutdown() } }
        let client = HatkClient(baseURL: stub.url, policy: stub.policy)
        let actor = try DID("did:plc:abc")
        do {
            _ = try await client.reader.storyAuthors()
            Issue.record("expected an error")
        } catch { #expect(error.kind == .unavailable && error.detail.contains("could not read")) }
        do {
            _ = try await client.reader.stories(of: actor)
            Issue.record("expected an error")
        } catch { #expect(error.kind == .unsupported) }
    }

    @Test("a server slower than the timeout fails with a timeout in about that time")
    func timeout() async throws {
        let stub = try StubServer { router in
            router.on(.get, "/xrpc/social.grain.unspecced.getStoryAuthors") { _ in
                try await Task.sleep(for: .seconds(5))
                return jsonBody(#"{"authors":[]}"#)
            }
        }
        defer { Task { await stub.server.shutdown() } }
        let started = ContinuousClock.now
        do {
            _ = try await HatkClient(baseURL: stub.url, timeout: 1, policy: stub.policy).reader.storyAuthors()
            Issue.record("expected a timeout")
        } catch {
            #expect(error.kind == .timeout)
        }
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    @Test("nothing listening is reported as unreachable")
    func unreachable() async throws {
        do {
            let nothing = URL(string: "http://127.0.0.1:9")!
            _ = try await HatkClient(baseURL: nothing, timeout: 2, policy: AddressPolicy.publicOnly.allowing([nothing]))
                .reader.storyAuthors()
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unavailable && error.detail.contains("could not be reached"))
        }
    }

    @Test("an unknown actor is nil, not an error")
    func unknownActor() async throws {
        let stub = try StubServer { router in
            router.on(.get, "/xrpc/social.grain.unspecced.getActorProfile") { _ in
                jsonBody(#"{"error":"Actor not found"}"#, status: .badRequest)
            }
        }
        defer { Task { await stub.server.shutdown() } }
        #expect(try await HatkClient(baseURL: stub.url, policy: stub.policy).reader.profile("nobody.test") == nil)
    }

    @Test("without an allowance for its origin, a loopback server is refused and reported as unreachable")
    func loopbackRefusedByDefault() async throws {
        let calls = Counter()
        let stub = try StubServer { router in
            router.on(.get, "/xrpc/social.grain.unspecced.getStoryAuthors") { _ in
                calls.increment()
                return jsonBody(#"{"authors":[]}"#)
            }
        }
        defer { Task { await stub.server.shutdown() } }

        do {
            _ = try await HatkClient(baseURL: stub.url).reader.storyAuthors()
            Issue.record("expected a refusal")
        } catch {
            #expect(error.kind == .unavailable && error.detail.contains("could not be reached"))
            #expect(error.detail.contains("refused: 127.0.0.1 is a loopback address"))
        }
        #expect(calls.value == 0)
    }
}

/// Counts handler calls across tasks.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
