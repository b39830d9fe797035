import Testing

@testable import HTTPServer

struct RequestIDTests {
    /// Ids are twelve hex digits, distinct within a run, and a trusted proxy's plain id is kept so one id follows
    /// the request through both logs; anyone else's, or a proxy's odd one, is replaced.
    @Test("request ids are short and distinct; only a trusted proxy's plain X-Request-Id is kept")
    func ids() {
        // setup
        let ids = RequestIDs()
        let fromProxy = Request(method: .get, path: "/", headers: ["X-Request-Id": "proxy-abc_123"], remoteAddress: "127.0.0.1")
        let fromStranger = Request(method: .get, path: "/", headers: ["X-Request-Id": "stranger-1"], remoteAddress: "203.0.113.9")
        let oddProxy = Request(method: .get, path: "/", headers: ["X-Request-Id": "a b\nforged=1"], remoteAddress: "127.0.0.1")

        // act
        let generated = (0..<1000).map { _ in ids.next() }

        // validate
        #expect(Set(generated).count == 1000)
        #expect(generated.allSatisfy { $0.count == 12 && $0.allSatisfy(\.isHexDigit) })
        #expect(ids.id(for: fromProxy) == "proxy-abc_123")
        #expect(ids.id(for: fromStranger) != "stranger-1")
        #expect(ids.id(for: oddProxy).count == 12)
    }
}
