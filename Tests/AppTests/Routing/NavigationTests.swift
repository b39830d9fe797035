import ATProto
import HTTPServer
import Lexicon
import Synchronization
import TestSupport
import Testing

@testable import App

/// Issue 26: every tool is found by following links from the home page, and the header's menu says who is signed in,
/// links their profile and offers the owner's tools only to the owner.
@Suite struct NavigationTests {
    /// The forms tests' household, set up: its owner and jonas are members.
    static func household() async throws -> RenderedFormsTests.Household {
        let seeded = try await RenderedFormsTests.household()
        seeded.household.state.withLock {
            $0.members = [
                FakeHousehold.member(FakeHousehold.ownerDID, "owner.home.test", isOwner: true),
                FakeHousehold.member(FakeHousehold.jonasDID, "jonas.home.test", isOwner: false),
            ]
        }
        return seeded
    }

    /// The pages reached from `/` by following links as `visitor`, breadth first, as route patterns: until every one
    /// of `wanted` is reached (so the walk stays short), or `limit` pages.
    static func reachable(as visitor: Visitor, routes: [Route], wanted: Set<String>, limit: Int = 120) async -> Set<String> {
        var queue = [SiteURL.home.path]
        var visited: Set<String> = []
        var patterns: Set<String> = []
        while let path = queue.first, visited.count < limit, !wanted.isSubset(of: patterns) {
            queue.removeFirst()
            guard visited.insert(path).inserted else { continue }
            let page = await visitor.get(path)
            let target = page.location.flatMap(SiteURL.localPath) ?? path
            if page.status == .found || page.status == .seeOther, !visited.contains(target) {
                queue.append(target)
                continue
            }
            guard page.status == .ok, page.headers["Content-Type"]?.hasPrefix("text/html") == true else { continue }
            let bare = String(path.split(separator: "?", maxSplits: 1).first ?? "")
            if let route = RenderedFormsTests.route(of: bare, method: .get, in: routes) { patterns.insert(route.page.pattern) }
            queue += RenderedForm.links(in: page.text).filter { link in
                !visited.contains(link) && !link.hasPrefix("/api/") && !link.hasPrefix("/img/") && !link.hasPrefix("/static/")
                    && ![".svg", ".jpg", ".png", ".css", ".js", ".webmanifest"].contains { link.split(separator: "?").first?.hasSuffix($0) == true }
            }
        }
        return patterns
    }

    @Test("from the home page the owner reaches every tool: profile, activity, muted, kiosk and screens, members, invitations, reports")
    func ownerFindsEveryTool() async throws {
        let seeded = try await Self.household()
        let tools: [SiteURL] = [
            .profile(actor: ""), .activity, .muted, .kioskSettings, .kiosk, .admin, .invite, .adminReports, .create, .story(did: "", rkey: ""),
            .comments(did: "", rkey: ""), .report,
        ]
        let reached = await Self.reachable(as: seeded.owner, routes: seeded.front.front.routes, wanted: Set(tools.map(\.pattern)))
        for tool in tools { #expect(reached.contains(tool.pattern), "\(tool.pattern) is not linked from any page reached from /") }
    }

    @Test("the header's menu names the person, links their own profile, and offers members, invitations and reports to the owner only")
    func headerMenu() async throws {
        let seeded = try await Self.household()
        let owner = await seeded.owner.get(SiteURL.home.path).text
        #expect(owner.contains(#"data-signed-in-as>@owner.home.test<"#))
        #expect(owner.contains(#"<a href="\#(SiteURL.profile(actor: "owner.home.test").path)">Your profile</a>"#))
        for path in [SiteURL.admin.path, SiteURL.invite.path, SiteURL.adminReports.path, SiteURL.kioskSettings.path, SiteURL.muted.path] {
            #expect(owner.contains(#"href="\#(path)""#), "the owner's menu links \(path)")
        }
        let jonas = try seeded.front.visitor("jonas.home.test")
        let member = await jonas.get(SiteURL.home.path).text
        #expect(member.contains(#"<a href="\#(SiteURL.profile(actor: "jonas.home.test").path)">Your profile</a>"#))
        #expect(member.contains(#"href="\#(SiteURL.kioskSettings.path)""#))
        for path in [SiteURL.admin.path, SiteURL.invite.path, SiteURL.adminReports.path] {
            #expect(!member.contains(#"href="\#(path)""#), "a member's menu does not link \(path)")
        }
    }
}
