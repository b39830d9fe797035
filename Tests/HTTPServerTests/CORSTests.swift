import HTTPServer
import Testing

/// The CORS header sets, each written once in `CORS`: exactly the headers each kind of answer sent before.
struct CORSTests {
    private func fields(_ cors: CORS) -> [String] { cors.headers.map { "\($0.name): \($0.value)" } }

    @Test("each set is exactly the headers its answers send: any origin alone, hatk's XRPC set, the authorization server's")
    func sets() {
        #expect(fields(.anyOrigin) == ["Access-Control-Allow-Origin: *"])
        #expect(
            fields(.xrpc) == [
                "Access-Control-Allow-Origin: *", "Access-Control-Allow-Headers: *", "Access-Control-Allow-Methods: GET, POST, OPTIONS",
            ])
        #expect(
            fields(.oauth) == [
                "Access-Control-Allow-Origin: *", "Access-Control-Allow-Headers: *, Authorization, DPoP, Content-Type",
                "Access-Control-Allow-Methods: GET, POST, OPTIONS", "Access-Control-Expose-Headers: DPoP-Nonce, WWW-Authenticate",
            ])
    }

    @Test("allowing replaces a header of the same name; withdrawing removes the set's names and nothing else")
    func allowAndWithdraw() {
        var response = Response(headers: ["Content-Type": "application/json", "access-control-allow-origin": "https://a.example"])
        response.allow(.xrpc)
        #expect(response.headers.values("Access-Control-Allow-Origin") == ["*"])
        #expect(response.headers["Access-Control-Allow-Methods"] == "GET, POST, OPTIONS")
        response.headers["Access-Control-Expose-Headers"] = "DPoP-Nonce"
        response.withdraw(.xrpc)
        #expect(response.headers["Access-Control-Allow-Origin"] == nil)
        #expect(response.headers["Access-Control-Allow-Headers"] == nil)
        #expect(response.headers["Access-Control-Allow-Methods"] == nil)
        #expect(response.headers["Access-Control-Expose-Headers"] == "DPoP-Nonce")
        #expect(response.headers["Content-Type"] == "application/json")
    }
}
