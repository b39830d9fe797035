import HTTPServer
import Testing

@testable import App

@Suite struct NoncedPageTests {
    static let old = "AAAAAAAAAAAAAAAAAAAAAA"

    static func page(body: String, policy: String) -> Response {
        var response = Response.html("")
        response.body = .bytes(Array(body.utf8))
        response.headers["Content-Security-Policy"] = policy
        return response
    }

    @Test("every occurrence of the old nonce, in the body and in each directive of the policy, becomes the fresh one")
    func everyOccurrenceSwapped() throws {
        let body = "<script nonce=\"\(Self.old)\"></script><p>A</p><style nonce=\"\(Self.old)\"></style>"
        let response = Self.page(body: body, policy: "script-src 'self' 'nonce-\(Self.old)'; style-src 'nonce-\(Self.old)'")
        let page = try #require(NoncedPage(response))
        let fresh = page.fresh(nonce: "BBBBBBBBBBBBBBBBBBBBBB")
        guard case .bytes(let out) = fresh.body else { Issue.record("no body"); return }
        #expect(
            String(decoding: out, as: UTF8.self)
                == "<script nonce=\"BBBBBBBBBBBBBBBBBBBBBB\"></script><p>A</p><style nonce=\"BBBBBBBBBBBBBBBBBBBBBB\"></style>")
        #expect(
            fresh.headers["Content-Security-Policy"]
                == "script-src 'self' 'nonce-BBBBBBBBBBBBBBBBBBBBBB'; style-src 'nonce-BBBBBBBBBBBBBBBBBBBBBB'")
        guard case .bytes(let kept) = page.response.body else { return }
        #expect(String(decoding: kept, as: UTF8.self) == body, "the cached copy keeps its own bytes")
    }

    @Test("each hit gets a nonce of its own, of the length tokens have")
    func eachHitFresh() throws {
        let page = try #require(NoncedPage(Self.page(body: "<script nonce=\"\(Self.old)\"></script>", policy: "script-src 'nonce-\(Self.old)'")))
        let nonces = (0..<50).compactMap { _ in PageCache.nonce(in: page.fresh().headers["Content-Security-Policy"] ?? "") }
        #expect(Set(nonces).count == 50)
        #expect(nonces.allSatisfy { $0.count == Self.old.count && $0 != Self.old })
    }

    @Test("a page whose policy has no nonce is not kept; offsets never overlap and miss nothing")
    func offsets() {
        #expect(NoncedPage(Self.page(body: "x", policy: "default-src 'self'")) == nil)
        #expect(NoncedPage.offsets(of: Array("xyz".utf8), in: Array("abc".utf8)) == [])
        #expect(NoncedPage.offsets(of: Array("ab".utf8), in: Array("abab-ab".utf8)) == [0, 2, 5])
        #expect(NoncedPage.offsets(of: Array("aa".utf8), in: Array("aaaa".utf8)) == [0, 2])
        #expect(NoncedPage.offsets(of: Array("abc".utf8), in: Array("ab".utf8)) == [])
    }
}
