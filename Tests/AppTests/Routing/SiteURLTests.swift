import Foundation
import HTTPServer
import Lexicon
import Testing

@testable import App

@Suite struct SiteURLTests {
    @Test("every page's example path is matched by its own route pattern, and by no other kind's")
    func pathsMatchPatterns() async {
        var router = Router()
        for kind in SiteURL.Kind.allCases {
            router.on(.get, kind.pattern) { _ in .text("\(kind)") }
        }
        for kind in SiteURL.Kind.allCases {
            let path = kind.example.path
            let response = await router.respond(to: Request(method: .get, path: path))
            guard case .bytes(let body) = response.body else {
                Issue.record("\(path) answered nothing")
                continue
            }
            #expect(String(decoding: body, as: UTF8.self) == "\(kind)", "\(path) should route to \(kind)")
            #expect(kind.example.kind == kind)
        }
    }

    @Test("a next or from value stays on this site: TAB, CR, LF, spaces, backslashes and a second slash are refused")
    func localPathsRefuseEveryWayOut() {
        for hostile in [
            "/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "//evil.example", "/\\evil.example", "/ /evil.example",
            "/%09/evil.example".removingPercentEncoding!, "https://evil.example", "evil.example", "/\u{0}x", "/é",
            "/" + String(repeating: "a", count: 600),
        ] {
            #expect(SiteURL.localPath(hostile) == nil, "\(hostile.debugDescription) must not be followed")
        }
        for local in ["/", "/profile/did:plc:abc/story/3k?from=/", "/kiosk?authors=a,b", "/%2F%2Fstill-a-path"] {
            #expect(SiteURL.localPath(local) == local)
        }
    }

    @Test("links percent-encode path segments and query values")
    func linksAreEncoded() {
        #expect(SiteURL.profile(actor: "a b/c").path == "/profile/a%20b%2Fc")
        #expect(SiteURL.login.with([("next", "/x?y=1&z=2"), ("handle", nil)]) == "/login?next=/x%3Fy%3D1%26z%3D2")
    }
}
