import Foundation
import TestSupport
import Testing

/// The household's flows in headless Chromium (Tests/ServerTests/Deployment/flows.py) in every topology the
/// server is really deployed in (issue 10 item 8): loopback; the Docker image's command line inside a network
/// namespace, reached by a non-loopback address; a host name with `--public-url`; nginx terminating TLS; and a
/// remote hatk on another origin. Each runs the `grain-stories` executable `swift build --build-tests` built,
/// with members made by `grain-stories users add`, and is torn down on every exit path.
///
/// The whole household flow (sign in, post with its preview, view, delete, sign out) runs where what differs is
/// more than the origin: on the LAN, behind nginx and against the remote hatk. Loopback, the host name and Caddy
/// check what the origin decides (`FLOW=origins`: Hosts, redirects, cookies, the origins of links, forms and
/// images, CSP, a clean console). The topologies share nothing, so `make test` runs two at once, on the release
/// build the Debian package ships (`GRAIN_STORIES_BINARY`).
///
/// Needs root (network namespaces) and the packages of the Makefile's TEST_PACKAGES: iproute2, nginx-light,
/// openssl, libnss3-tools, chromium, chromium-driver, curl.
@Suite
struct DeploymentSuiteTests {
    static let password = "deploy-suite-password"
    /// Two topologies at once, and those that make a network namespace alone (swift-testing 6.3 runs every test of a
    /// suite at once, whatever width it is given).
    static let lanes = Lanes(2)
    /// Chromium must reach each topology directly, whatever proxy the environment names.
    static let browserArguments = ["--no-proxy-server"]

    /// BROWSER_ARGS for flows.py: a JSON list.
    static func json(_ strings: [String]) -> String {
        (try? JSONEncoder().encode(strings)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    static var plainBrowser: String { json(browserArguments) }

    /// Chromium resolving `name` to loopback, as a household's DNS would resolve it to the box.
    static func browserArguments(mapping name: String) -> String {
        json(browserArguments + ["--host-resolver-rules=MAP \(name) 127.0.0.1"])
    }

    @Test("loopback: at http://127.0.0.1 a member signs in and out, with the origin's cookies, links, forms and CSP")
    func loopback() async throws {
        try await Self.lanes.run {
            let run = try DeploymentRun("loopback")
            defer { run.tearDown() }
            try run.addMember("ada", password: Self.password)
            let (server, base) = try await run.serve(["--host", "127.0.0.1", "--port", "0"])
            try await run.flows(
                base: base,
                environment: ["HANDLE": "ada.home.test", "PASSWORD": Self.password, "BROWSER_ARGS": Self.plainBrowser, "FLOW": "origins"],
                servers: [server])
        }
    }

    @Test("the Docker image's command line in a network namespace: reached by its address, and a hostile Host is refused")
    func dockerCommandLineOnTheNetwork() async throws {
        try await Self.lanes.run(exclusive: true) {
            let run = try DeploymentRun("namespace")
            defer { run.tearDown() }
            let namespace = try NetworkNamespace()
            run.onTearDown { namespace.remove() }
            try run.addMember("ada", password: Self.password)
            // Exactly the Dockerfile's ENTRYPOINT, with the data directory of the test's.
            let (server, _) = try await run.serve(
                ["--host", "0.0.0.0", "--port", "8080"], wrappedIn: namespace.exec)
            let base = "http://\(namespace.address):8080"
            try Tool.run(
                ["curl", "-fsS", "--noproxy", "*", "-o", "/dev/null", "--max-time", "10", base + "/healthz"], what: "reaching \(base) from the host")
            #expect(server.output.contains("from other devices: \(base)"), "serve does not print the address other devices use:\n\(server.output)")
            try await run.flows(
                base: base,
                environment: [
                    "HANDLE": "ada.home.test", "PASSWORD": Self.password, "BROWSER_ARGS": Self.plainBrowser,
                    "HOSTILE_HOST": "\(namespace.address):8080",
                ], servers: [server])
        }
    }

    @Test(
        "a household's first minutes on the network: the owner is made at /welcome with the setup code the server printed, and the demo there takes no published password"
    )
    func firstRunOnTheNetwork() async throws {
        try await Self.lanes.run(exclusive: true) {
            let run = try DeploymentRun("first-run")
            defer { run.tearDown() }
            let namespace = try NetworkNamespace()
            run.onTearDown { namespace.remove() }
            // Exactly what a household runs: every interface, a fresh data directory, nobody added from a shell.
            let (fresh, _) = try await run.serve(["--host", "0.0.0.0", "--port", "8080"], wrappedIn: namespace.exec)
            let code = try #require(Self.capture(#"enter the setup code: (\S+)"#, in: fresh.output), "no setup code printed:\n\(fresh.output)")
            let demoData = run.directory.path + "/demo-data"
            let (demo, _) = try await run.serve(
                ["--demo", "--demo-photos", demoPhotos, "--host", "0.0.0.0", "--port", "8081", "--geocoder", "none"], wrappedIn: namespace.exec,
                data: demoData)
            #expect(demo.output.contains("made for this server because other devices can reach it"), "\(demo.output)")
            #expect(!demo.output.contains("maya-stories"), "the demo printed a published password on the network:\n\(demo.output)")
            let password = try #require(Self.capture(#"maya\.home\.test  password: (\S+)"#, in: demo.output), "\(demo.output)")
            #expect(demo.output.contains("from other devices: http://\(namespace.address):8081"), "\(demo.output)")
            try await run.python(
                "first_run.py",
                environment: [
                    "BASE_URL": "http://\(namespace.address):8080", "SETUP_CODE": code, "DEMO_URL": "http://\(namespace.address):8081",
                    "DEMO_PASSWORD": password,
                ], servers: [fresh, demo], what: "a household's first minutes")
        }
    }

    @Test("a household's first minutes behind nginx terminating TLS: the owner is made at https://stories.test/welcome, with __Host- cookies")
    func firstRunBehindTLS() async throws {
        try await Self.lanes.run {
            let run = try DeploymentRun("first-run-tls")
            defer { run.tearDown() }
            let certificates = try TestCertificates(name: "stories.test", directory: run.directory.path)
            let (upstream, port) = (try Tool.freePort(), try Tool.freePort())
            let base = "https://stories.test:\(port)"
            let (server, _) = try await run.serve(["--port", String(upstream), "--public-url", base, "--behind-tls-proxy"])
            let code = try #require(Self.capture(#"enter the setup code: (\S+)"#, in: server.output), "no setup code printed:\n\(server.output)")
            let proxy = try await NginxProxy(
                name: "stories.test", port: port, upstream: upstream, certificates: certificates, directory: run.directory.path)
            run.onTearDown { proxy.stop() }
            try await run.python(
                "first_run.py",
                environment: [
                    "BASE_URL": base, "SETUP_CODE": code, "BROWSER_ARGS": Self.browserArguments(mapping: "stories.test"),
                    "BROWSER_HOME": certificates.browserHome,
                ], servers: [server, proxy.process], what: "a household's first minutes behind TLS")
        }
    }

    /// The first capture of `pattern` in `text`.
    static func capture(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    @Test("a host name with --public-url: http://stories.test (Chromium resolves it to loopback), where the server's other names lead")
    func publicHostName() async throws {
        try await Self.lanes.run {
            let run = try DeploymentRun("hostname")
            defer { run.tearDown() }
            try run.addMember("ada", password: Self.password)
            let port = try Tool.freePort()
            let base = "http://stories.test:\(port)"
            let (server, printed) = try await run.serve(["--port", String(port), "--public-url", base])
            #expect(printed == base)
            try await run.flows(
                base: base,
                environment: [
                    "HANDLE": "ada.home.test", "PASSWORD": Self.password, "BROWSER_ARGS": Self.browserArguments(mapping: "stories.test"),
                    "OTHER_ORIGIN": "http://127.0.0.1:\(port)", "FLOW": "origins",
                ], servers: [server])
        }
    }

    @Test("behind Caddy terminating TLS, with the configuration docs/deploy.md gives: https://stories.test's origin checks")
    func behindCaddy() async throws {
        try await Self.lanes.run { try await Self.behindTLS("caddy", flow: "origins", proxy: CaddyProxy.init) }
    }

    @Test("behind nginx terminating TLS: https://stories.test is a secure origin with __Host- cookies, where the plain port leads")
    func behindTLSProxy() async throws {
        try await Self.lanes.run { try await Self.behindTLS("nginx", flow: "full", proxy: NginxProxy.init) }
    }

    /// A TLS proxy (made by `proxy` from a name, its port, the upstream's, the certificates and a folder) in front
    /// of the server at https://stories.test, and the flows there.
    static func behindTLS<Proxy: TLSTerminating>(
        _ name: String, flow: String,
        proxy: (String, UInt16, UInt16, TestCertificates, String) async throws -> Proxy
    ) async throws {
        let run = try DeploymentRun(name)
        defer { run.tearDown() }
        try run.addMember("ada", password: Self.password)
        let certificates = try TestCertificates(name: "stories.test", directory: run.directory.path)
        let (upstream, port) = (try Tool.freePort(), try Tool.freePort())
        let base = "https://stories.test:\(port)"
        let (server, _) = try await run.serve(["--port", String(upstream), "--public-url", base, "--behind-tls-proxy"])
        let running = try await proxy("stories.test", port, upstream, certificates, run.directory.path)
        run.onTearDown { running.stop() }
        try await run.flows(
            base: base,
            environment: [
                "HANDLE": "ada.home.test", "PASSWORD": Self.password, "BROWSER_ARGS": Self.browserArguments(mapping: "stories.test"),
                "BROWSER_HOME": certificates.browserHome, "SECURE": "1", "OTHER_ORIGIN": "http://127.0.0.1:\(upstream)", "FLOW": flow,
            ], servers: [server, running.process])
    }

    @Test("the fake hatk refuses the proofs, clients and codes hatk refuses, so the --appview topology proves something")
    func fakeHatkRefusesWhatHatkRefuses() async throws {
        try await Self.lanes.run {
            let run = try DeploymentRun("fake-hatk-check")
            defer { run.tearDown() }
            try await run.python("fake_hatk_check.py", what: "the fake hatk's own checks")
        }
    }

    @Test("--appview to a hatk on another origin: sign-in through its own pages, its images, its DPoP checks")
    func remoteHatk() async throws {
        try await Self.lanes.run {
            let run = try DeploymentRun("appview")
            defer { run.tearDown() }
            let script = repositoryRoot.appendingPathComponent("Tests/ServerTests/Deployment/fake_hatk.py").path
            let hatk = try run.start(
                "fake-hatk",
                ["/usr/bin/env", "python3", script, "--account", "ada.fake.test:\(Self.password):Ada", "--seed-photo", DeploymentRun.seedPhoto])
            let hatkURL = try await hatk.waitFor(#"fake hatk listening on (http://[0-9.:]+)"#)
            let (server, base) = try await run.serve(["--host", "127.0.0.1", "--port", "0", "--appview", hatkURL])
            try await run.flows(
                base: base,
                environment: [
                    "HANDLE": "ada.fake.test", "PASSWORD": Self.password, "BROWSER_ARGS": Self.plainBrowser, "SIGN_IN_ORIGIN": hatkURL,
                    "IMAGE_ORIGINS": Self.json([hatkURL]), "FAKE_HATK": hatkURL,
                ], servers: [server, hatk])
        }
    }
}
