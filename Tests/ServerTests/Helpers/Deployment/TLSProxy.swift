import Foundation
import TestSupport

/// A certificate authority of the test's own and a certificate for one name, made with openssl, and a Chromium
/// home whose NSS database trusts that authority, so the browser sees the proxied site as a secure origin with
/// no certificate warning switched off.
/// A TLS proxy the suite runs in front of the server.
protocol TLSTerminating {
    var process: ChildProcess { get }
    func stop()
}

struct TestCertificates {
    let directory: String
    var caPath: String { directory + "/ca.pem" }
    var certificatePath: String { directory + "/site.pem" }
    var keyPath: String { directory + "/site.key" }
    /// HOME for Chromium: `$HOME/.pki/nssdb` trusts the CA.
    var browserHome: String { directory + "/browser-home" }

    init(name: String, directory: String) throws {
        self.directory = directory
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Tool.run(
            ["openssl", "req", "-x509"] + ec + [
                "-keyout", directory + "/ca.key", "-out", caPath, "-days", "2", "-subj", "/CN=grain-stories deployment suite CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], what: "openssl (making the test CA)")
        try Tool.run(
            ["openssl", "req"] + ec + ["-keyout", keyPath, "-out", directory + "/site.csr", "-subj", "/CN=\(name)"],
            what: "openssl (the site's key)")
        let extensions = directory + "/site.ext"
        try "subjectAltName=DNS:\(name)\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
            .write(toFile: extensions, atomically: true, encoding: .utf8)
        try Tool.run(
            [
                "openssl", "x509", "-req", "-in", directory + "/site.csr", "-CA", caPath, "-CAkey", directory + "/ca.key",
                "-CAcreateserial", "-out", certificatePath, "-days", "2", "-extfile", extensions,
            ], what: "openssl (signing the site's certificate)")

        let database = browserHome + "/.pki/nssdb"
        try FileManager.default.createDirectory(atPath: database, withIntermediateDirectories: true)
        try Tool.run(["certutil", "-d", "sql:" + database, "-N", "--empty-password"], what: "certutil (libnss3-tools) making an NSS db")
        try Tool.run(
            ["certutil", "-d", "sql:" + database, "-A", "-t", "C,,", "-n", "grain-stories test CA", "-i", caPath],
            what: "certutil trusting the test CA")
    }
}

/// Debian's nginx, started by the test with its own configuration and prefix: TLS for `name` on 127.0.0.1:`port`,
/// proxied to a server on 127.0.0.1:`upstream` with the forwarded headers a household's proxy sets.
final class NginxProxy: TLSTerminating {
    let process: ChildProcess
    let port: UInt16

    init(name: String, port: UInt16, upstream: UInt16, certificates: TestCertificates, directory: String) async throws {
        self.port = port
        let prefix = directory + "/nginx"
        let site = try DeployGuide.nginxSite(name: name, port: port, upstream: upstream, certificates: certificates)
        // Workers run as nobody: they need to write request bodies (photos) to these.
        for temporary in ["body", "proxy", "fastcgi", "uwsgi", "scgi"] {
            try FileManager.default.createDirectory(
                atPath: prefix + "/" + temporary, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        }
        let configuration = """
            daemon off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log warn;
            events { worker_connections 128; }
            http {
                access_log \(prefix)/access.log;
                client_body_temp_path \(prefix)/body;
                proxy_temp_path \(prefix)/proxy;
                fastcgi_temp_path \(prefix)/fastcgi;
                uwsgi_temp_path \(prefix)/uwsgi;
                scgi_temp_path \(prefix)/scgi;
            \(site)
            }
            """
        try configuration.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else {
            throw DeploymentFailure("nginx is not installed (/usr/sbin/nginx); `make test-deps` installs nginx-light")
        }
        process = try ChildProcess(
            "nginx", ["/usr/sbin/nginx", "-p", prefix, "-e", prefix + "/error.log", "-c", prefix + "/nginx.conf"], logDirectory: directory)
        // Ready when it answers TLS for the name, with the test CA as the only trust.
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            do {
                try Tool.run([
                    "curl", "-fsS", "--noproxy", "*", "-o", "/dev/null", "--cacert", certificates.caPath, "--resolve",
                    "\(name):\(port):127.0.0.1", "https://\(name):\(port)/healthz",
                ])
                return
            } catch {
                guard process.process.isRunning, ContinuousClock.now < deadline else {
                    process.stop()
                    let log = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? ""
                    throw DeploymentFailure("nginx did not answer https://\(name):\(port)/healthz: \(error)\n\(process.output)\n\(log)")
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    func stop() { process.stop() }
}

/// Debian's Caddy with the configuration docs/deploy.md gives (its own certificate instead of an ACME one): TLS for
/// `name` on 127.0.0.1:`port`, `reverse_proxy` to 127.0.0.1:`upstream`. Caddy passes the Host on and sets the
/// `X-Forwarded-*` headers itself.
final class CaddyProxy: TLSTerminating {
    let process: ChildProcess
    let port: UInt16

    init(name: String, port: UInt16, upstream: UInt16, certificates: TestCertificates, directory: String) async throws {
        self.port = port
        let prefix = directory + "/caddy"
        try FileManager.default.createDirectory(atPath: prefix, withIntermediateDirectories: true)
        let configuration = """
            {
                admin off
                auto_https disable_redirects
                skip_install_trust
                storage file_system \(prefix)/data
            }
            \(try DeployGuide.caddySite(name: name, port: port, upstream: upstream, certificates: certificates))
            """
        try configuration.write(toFile: prefix + "/Caddyfile", atomically: true, encoding: .utf8)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/caddy") else {
            throw DeploymentFailure("Caddy is not installed (/usr/bin/caddy); `make test-deps` installs the caddy package")
        }
        process = try ChildProcess(
            "caddy", ["/usr/bin/caddy", "run", "--config", prefix + "/Caddyfile", "--adapter", "caddyfile"],
            environment: ["XDG_DATA_HOME": prefix + "/xdg-data", "XDG_CONFIG_HOME": prefix + "/xdg-config", "HOME": prefix],
            logDirectory: directory)
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            do {
                try Tool.run([
                    "curl", "-fsS", "--noproxy", "*", "-o", "/dev/null", "--cacert", certificates.caPath, "--resolve",
                    "\(name):\(port):127.0.0.1", "https://\(name):\(port)/healthz",
                ])
                return
            } catch {
                guard process.process.isRunning, ContinuousClock.now < deadline else {
                    process.stop()
                    throw DeploymentFailure("Caddy did not answer https://\(name):\(port)/healthz: \(error)\n\(process.output)")
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    func stop() { process.stop() }
}

/// The proxy configurations docs/deploy.md gives a household, read from the guide itself so that the suite runs
/// exactly what it says: only the domain, the certificate, the listening address and the server's port are put in
/// for the test's. A guide edited so that one of those lines is no longer there fails the suite instead of drifting.
enum DeployGuide {
    static func block(_ language: String) throws -> String {
        let guide = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/deploy.md"), encoding: .utf8)
        guard let start = guide.range(of: "```\(language)\n"), let end = guide.range(of: "\n```", range: start.upperBound..<guide.endIndex)
        else { throw DeploymentFailure("docs/deploy.md has no ```\(language) block") }
        return String(guide[start.upperBound..<end.lowerBound])
    }

    /// `text` with each `(what the guide says, what the test uses)` replaced; every one must be there.
    static func replacing(_ text: String, _ replacements: [(String, String)], in language: String) throws -> String {
        var result = text
        for (from, to) in replacements {
            guard result.contains(from) else { throw DeploymentFailure("the ```\(language) block of docs/deploy.md no longer has `\(from)`") }
            result = result.replacingOccurrences(of: from, with: to)
        }
        return result
    }

    /// The guide's nginx `server` block for `name` on 127.0.0.1:`port`, proxied to 127.0.0.1:`upstream`.
    static func nginxSite(name: String, port: UInt16, upstream: UInt16, certificates: TestCertificates) throws -> String {
        try replacing(
            try block("nginx"),
            [
                ("listen 443 ssl;", "listen 127.0.0.1:\(port) ssl;"), ("server_name stories.example;", "server_name \(name);"),
                ("/etc/letsencrypt/live/stories.example/fullchain.pem", certificates.certificatePath),
                ("/etc/letsencrypt/live/stories.example/privkey.pem", certificates.keyPath),
                ("http://127.0.0.1:8080;", "http://127.0.0.1:\(upstream);"),
            ], in: "nginx")
    }

    /// The guide's Caddy site for `name` on 127.0.0.1:`port` with the test's certificate instead of an ACME one.
    static func caddySite(name: String, port: UInt16, upstream: UInt16, certificates: TestCertificates) throws -> String {
        try replacing(
            try block("caddyfile"),
            [
                (
                    "stories.example {",
                    "https://\(name):\(port) {\n    bind 127.0.0.1\n    tls \(certificates.certificatePath) \(certificates.keyPath)"
                ),
                ("reverse_proxy 127.0.0.1:8080", "reverse_proxy 127.0.0.1:\(upstream)"),
            ], in: "caddyfile")
    }
}
