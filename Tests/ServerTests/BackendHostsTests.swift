import Foundation
import HTTPServer
import Testing

@testable import Server

/// Issue 25, N5: the embedded backend's reads and photos answer only our own host names, as the pages do, so a name an
/// attacker points at the box (DNS rebinding) reads nothing, on a public server as on a household's.
struct BackendHostsTests {
    @Test("/xrpc and /img sent to a host name that is not ours get 421 in hatk's error shape; our own names are answered")
    func foreignHostIsRefused() async throws {
        let live = try await LiveApp()
        defer { Task { await live.stop() } }
        let strip = try await live.get("/api/stories/maya.home.test")
        let photo = try #require(strip.body.firstMatch(of: #/"image":"(/img/[^"]+)"/#)?.1)
        let own = String(live.base.dropFirst("http://".count))
        for path in ["/xrpc/social.grain.unspecced.getStoryAuthors", String(photo)] {
            for (host, expected) in [("evil.example", 421), ("evil.example:\(own.split(separator: ":").last!)", 421), (own, 200)] {
                var headers = HTTPHeaders()
                headers.add("Host", host)
                let answer = await live.app.server.respond(to: Request(method: .get, path: path, headers: headers, remoteAddress: "127.0.0.1"))
                #expect(answer.status.code == expected, "\(path) on \(host)")
                if expected == 421 {
                    #expect(answer.headers["Access-Control-Allow-Origin"] == nil)
                    guard case .bytes(let body) = answer.body else {
                        Issue.record("no body")
                        continue
                    }
                    #expect(String(decoding: body, as: UTF8.self).contains(#""error":"MisdirectedRequest""#))
                }
            }
        }
    }
}
