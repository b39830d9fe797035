import Foundation
import HTTPServer
import Lexicon
import TestSupport
import Testing

@testable import App

@Suite struct SiteURLTests {
    /// One URL of every case, with values that need encoding.
    static let examples: [SiteURL] = [
        .home, .stories(actor: "maya.home.test"), .story(did: "did:plc:abc", rkey: "3kxyz"), .profile(actor: "did:plc:abc"), .create,
        .createInspect, .createProgress, .placesData, .manifest, .share, .healthz, .readyz, .metrics, .login, .logout, .authCallback, .clientMetadata,
        .deleteStory(did: "did:plc:abc", rkey: "3kxyz"), .storiesData(actor: "a b/c"), .seen, .kiosk, .kioskData, .welcome, .invite,
        .join(token: "t/k"), .favorite(did: "did:plc:abc", rkey: "3kxyz"), .comments(did: "did:plc:abc", rkey: "3kxyz"),
        .deleteComment(did: "did:plc:abc", rkey: "3kxyz"), .commentsData(did: "did:plc:abc", rkey: "3kxyz"),
        .storyPreview(did: "did:plc:abc", rkey: "3kxyz"), .storyBlurred(did: "did:plc:abc", rkey: "3kxyz"), .report,
        .mute(actor: "did:plc:abc"), .block(actor: "did:plc:abc"), .muted, .activity, .activitySeen, .adminReports, .admin, .memories(years: 2),
        .kioskSettings, .kioskQR, .storyQR(did: "did:plc:abc", rkey: "3kxyz"), .screenPairings, .screenPairing(token: "t/k"),
        .screenPairingQR(token: "t/k"), .storyShares(did: "did:plc:abc", rkey: "3kxyz"), .sharedStory(token: "t/k"),
        .sharedPhoto(token: "t/k"), .sharedPreview(token: "t/k"), .help,
    ]

    @Test("the examples hold every case: a new case fails to compile here until it is listed")
    func examplesCoverEveryCase() {
        func listed(_ url: SiteURL) -> Bool {
            switch url {
            case .home, .stories, .story, .profile, .create, .createInspect, .createProgress, .placesData, .manifest, .share, .healthz, .readyz,
                .metrics,
                .login, .logout, .authCallback, .clientMetadata, .deleteStory, .storiesData, .seen, .kiosk, .kioskData, .welcome, .invite,
                .join, .favorite, .comments, .deleteComment, .commentsData, .storyPreview, .storyBlurred, .report, .mute, .block, .muted,
                .activity, .activitySeen, .adminReports, .admin, .memories, .kioskSettings, .kioskQR, .storyQR, .screenPairings, .screenPairing,
                .screenPairingQR, .storyShares, .sharedStory, .sharedPhoto, .sharedPreview, .help:
                return Set(Self.examples.map(\.pattern)).contains(url.pattern)
            }
        }
        #expect(Self.examples.allSatisfy(listed))
        #expect(Set(Self.examples.map(\.pattern)).count == Self.examples.count, "two cases share a pattern")
    }

    @Test("every page's path is matched by its own pattern, and by no other page's")
    func pathsMatchPatterns() async {
        var router = Router()
        for url in Self.examples {
            router.on(.get, url.pattern) { _ in .text(url.pattern) }
        }
        for url in Self.examples {
            let response = await router.respond(to: Request(method: .get, path: url.path))
            guard case .bytes(let body) = response.body else {
                Issue.record("\(url.path) answered nothing")
                continue
            }
            #expect(String(decoding: body, as: UTF8.self) == url.pattern, "\(url.path) should route to \(url.pattern)")
        }
    }

    @Test("a route's pattern does not depend on the values of the case it names")
    func patternsIgnoreValues() {
        #expect(SiteURL.story(did: "", rkey: "").pattern == "/profile/:did/story/:rkey")
        #expect(SiteURL.story(did: "did:plc:x", rkey: "3k").pattern == "/profile/:did/story/:rkey")
        #expect(SiteURL.deleteComment(did: "", rkey: "").pattern == "/profile/:did/story/:rkey/comments/delete")
        #expect(SiteURL.memories(years: 3).path == "/memories/3")
        #expect(SiteURL.home.pattern == "/" && SiteURL.home.path == "/")
    }

    @Test("no template writes a path of its own: every link, form and source comes from SiteURL or the static files")
    func templatesHaveNoLiteralPaths() throws {
        let files = try templateFiles()
        #expect(files.count > 10)
        var found: [String] = []
        for (file, html) in files {
            found += captures(#"((?:href|action|src|formaction|poster|content)="/[^"]*")"#, in: html).map { "\(file): \($0)" }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("the templates' site paths are the SiteURL cases' own")
    func sitePaths() throws {
        let site = try JSONDecoder().decode([String: String].self, from: JSONEncoder().encode(SitePaths()))
        #expect(site["admin"] == SiteURL.admin.path && site["adminReports"] == "/admin/reports" && site["home"] == "/")
        #expect(site.count == 14)
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
