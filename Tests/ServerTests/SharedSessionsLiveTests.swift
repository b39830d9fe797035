import Foundation
import TestSupport
import Testing

/// Two `grain-stories serve` fronts with `--sessions postgres://...` on one throwaway PostgreSQL cluster, against
/// one fake hatk (a remote `--appview`, Tests/ServerTests/Deployment/fake_hatk.py), as a public front behind a load
/// balancer runs (issue 15 item 6). The browser's cookie goes to either front, as a load balancer would send it.
@Suite(.serialized)
struct SharedSessionsLiveTests {
    static let password = "shared-sessions-password"

    /// The cluster, the fake hatk and two fronts; `tearDown()` stops them all whatever happened.
    final class TwoFronts: @unchecked Sendable {
        let run: DeploymentRun
        let cluster: PostgresCluster
        var hatk = ""
        var a = ""
        var b = ""
        var hatkProcess: ChildProcess?

        init(_ name: String, firstTokenSeconds: Int = 3600) async throws {
            run = try DeploymentRun(name)
            do {
                cluster = try PostgresCluster()
            } catch {
                run.tearDown()
                throw error
            }
            run.onTearDown { [cluster] in cluster.stop() }
            do {
                let sessions = try cluster.createDatabase("fronts")
                let script = repositoryRoot.appendingPathComponent("Tests/ServerTests/Deployment/fake_hatk.py").path
                let fake = try run.start(
                    "fake-hatk",
                    [
                        "/usr/bin/env", "python3", script, "--account", "ada.fake.test:\(SharedSessionsLiveTests.password):Ada",
                        "--seed-photo", DeploymentRun.seedPhoto, "--first-token-seconds", String(firstTokenSeconds),
                    ])
                hatkProcess = fake
                hatk = try await fake.waitFor(#"fake hatk listening on (http://[0-9.:]+)"#)
                // One sealing key for both: each opens the tokens the other sealed.
                let key = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"
                for name in ["a", "b"] {
                    let binary = try ServerProcess.executable().path
                    let front = try run.start(
                        "front-\(name)",
                        [
                            binary, "serve", "--host", "127.0.0.1", "--port", "0", "--appview", hatk, "--sessions", sessions,
                            "--data", run.directory.path + "/data-\(name)", "--geocoder", "none",
                        ], environment: ["GRAIN_STORIES_DATA_KEY": key])
                    let url = try await front.waitFor(#"grain-stories is serving on (\S+)"#)
                    if name == "a" { a = url } else { b = url }
                }
            } catch {
                run.tearDown()
                throw error
            }
        }

        func tearDown() { run.tearDown() }

        /// What the fake hatk counted (sign-ins, refreshes, DPoP failures).
        func report() async throws -> [String: Any] {
            let page = try await Browser(base: hatk).get("/_fake/report")
            return try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any] ?? [:]
        }

        /// Signs in on front A through the fake hatk's own page; returns the browser, its cookie now a session.
        func signInOnA() async throws -> Browser {
            let browser = Browser(base: a)
            let login = try await browser.get("/login?next=/")
            let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: login.body).first)
            let started = try await browser.post("/login", form: [("csrf", csrf), ("handle", "ada.fake.test"), ("next", "/")])
            let authorize = try #require(started.location, "starting sign-in answered \(started.status): \(started.body.prefix(300))")
            let page = try await browser.get(authorize)
            let requestURI = unescape(try #require(captures(#"name="request_uri" value="([^"]+)""#, in: page.body).first))
            let approved = try await browser.post(
                hatk + "/oauth/authorize",
                form: [("request_uri", requestURI), ("username", "ada.fake.test"), ("password", SharedSessionsLiveTests.password)])
            let callback = try #require(approved.location, "the fake hatk's form answered \(approved.status)")
            let landed = try await browser.get(callback)
            #expect(landed.status == 303, "the callback answered \(landed.status): \(landed.body.prefix(300))")
            return browser
        }

        /// A browser on front B with the same session cookie, as the load balancer would send it there.
        func onB(_ browser: Browser) throws -> Browser {
            let other = Browser(base: b)
            other.plant("gs_session", try #require(browser.cookie("gs_session"), "no session cookie after sign-in"))
            return other
        }

        var logs: String {
            run.childrenOutput
        }
    }

    @Test("a front keeping its sessions in PostgreSQL is healthy without a front.sqlite, and unhealthy once PostgreSQL stops")
    func healthWithSharedSessions() async throws {
        let fronts = try await TwoFronts("shared-health")
        defer { fronts.tearDown() }
        for base in [fronts.a, fronts.b] {
            let health = try await Browser(base: base).get("/healthz")
            #expect(health.status == 200, "\(base)/healthz answered \(health.status): \(health.body)")
        }
        fronts.cluster.stop()
        let down = try await Browser(base: fronts.a).get("/healthz")
        #expect(down.status == 503 && down.body.contains("the shared session database does not answer"), "\(down.status): \(down.body)")
    }

    @Test("signed in on front A, a person posts through front B; signing out on A ends the session on B at once")
    func signInOnOnePostThroughTheOther() async throws {
        let fronts = try await TwoFronts("shared-post")
        defer { fronts.tearDown() }
        let onA = try await fronts.signInOnA()
        let onB = try fronts.onB(onA)
        let form = try await onB.get("/create")
        #expect(form.status == 200, "front B does not know the session made on A (\(form.status))\n\(fronts.logs)")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first)
        let posted = try await onB.postPhoto(try gradientJPEG(width: 640, height: 480, seed: 3), csrf: csrf)
        #expect(posted.status == 303, "posting through B answered \(posted.status): \(posted.body.prefix(400))\n\(fronts.logs)")
        let story = try #require(posted.location)
        #expect(try await onA.get(story).status == 200, "front A shows the story posted through B")

        // B's strip, signed in, twice: the second is the one B's page cache holds for this session.
        for _ in 0..<2 { #expect(try await onB.get("/").body.contains(#"action="/logout""#), "B does not show A's sign-in") }
        let page = try await onA.get("/")
        let logoutToken = try #require(captures(#"name="csrf" value="([^"]+)""#, in: page.body).first)
        let out = try await onA.post("/logout", form: [("csrf", logoutToken)])
        #expect(out.status == 303)
        // At once, within B's page-cache TTL: B keeps no session in memory for its fast path, so the signed-in strip it
        // holds for this session is not served.
        let strip = try await onB.get("/")
        #expect(strip.status == 200 && !strip.body.contains(#"action="/logout""#), "B served its cached signed-in strip after the sign-out")
        let after = try await onB.get("/create")
        #expect(after.status == 302, "front B still serves the session signed out on A (\(after.status))")
        let report = try await fronts.report()
        #expect((report["dpop_failures"] as? [Any])?.isEmpty == true, "the fake hatk refused proofs: \(report)")
        #expect(report["revoked"] as? Int == 1, "signing out revokes the refresh token once")
    }

    @Test("under concurrent load on both fronts, an expiring token is refreshed exactly once, and both stay signed in")
    func exactlyOneRefreshAcrossFronts() async throws {
        // The sign-in's token lives 30 s: inside the refresh margin, so the first use of it refreshes.
        let fronts = try await TwoFronts("shared-refresh", firstTokenSeconds: 30)
        defer { fronts.tearDown() }
        let onA = try await fronts.signInOnA()
        let onB = try fronts.onB(onA)
        #expect(try await fronts.report()["refreshes"] as? Int == 0)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                let browser = index % 2 == 0 ? onA : onB
                group.addTask { try await browser.get("/").status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)\n\(fronts.logs)")
        let report = try await fronts.report()
        #expect(report["refreshes"] as? Int == 1, "refreshes that reached the fake hatk: \(report)\n\(fronts.logs)")
        for browser in [onA, onB] {
            #expect(try await browser.get("/create").status == 200, "signed out after the refresh: \(fronts.logs)")
        }
    }
}
