import Foundation
import TestSupport
import Testing

@testable import Server

/// What monitors and operators get: `/healthz` and `/readyz` that look at the databases and the blob directory,
/// `/metrics` for allowed addresses only, JSON logs with a request id on every request's lines, and the same id
/// on error pages.
@Suite(.serialized)
struct ObservabilityTests {
    @Test("/healthz and /readyz answer ok, and /healthz says what is wrong when the blob directory is gone")
    func health() async throws {
        // setup
        let live = try await LiveApp()
        let browser = Browser(base: live.base)

        // act
        let healthy = try await browser.get("/healthz")
        let ready = try await browser.get("/readyz")
        let blobs = live.dataDirectory + "/blobs"
        try FileManager.default.moveItem(atPath: blobs, toPath: blobs + "-away")
        let broken = try await browser.get("/healthz")
        let notReady = try await browser.get("/readyz")
        try FileManager.default.moveItem(atPath: blobs + "-away", toPath: blobs)
        let again = try await browser.get("/healthz")
        // What a stop does first, before the drain: a load balancer stops sending requests here.
        live.app.health.setAccepting(false)
        let stopping = try await browser.get("/readyz")
        let stillAlive = try await browser.get("/healthz")

        // validate
        #expect(healthy.status == 200 && healthy.body == "ok")
        #expect(ready.status == 200 && ready.body == "ok")
        #expect(broken.status == 503)
        #expect(broken.body.contains("the blob directory is missing"))
        #expect(!broken.body.contains(live.dataDirectory), "no paths go to whoever asks")
        #expect(notReady.status == 503)
        #expect(again.status == 200)
        #expect(stopping.status == 503 && stopping.body == "stopping\n")
        #expect(stillAlive.status == 200)
        await live.stop()
    }

    @Test("/healthz and /readyz answer 503 naming the database when a database file is damaged, and ok once it is back")
    func damagedDatabase() async throws {
        // setup
        let live = try await LiveApp()
        let browser = Browser(base: live.base)
        let database = live.dataDirectory + "/backend.sqlite"
        #expect(try await browser.get("/healthz").status == 200)

        // act: the database is replaced by a file whose header is not SQLite's (a disk that lost its first sector, a
        // stray copy over it), while its write-ahead log stays: a reader asking SQLite would find page 1 in the log
        // and never look at the damaged file. The server's open connections keep using the real file meanwhile.
        #expect(FileManager.default.fileExists(atPath: database + "-wal"), "the case where SQLite alone cannot tell")
        try FileManager.default.moveItem(atPath: database, toPath: database + "-aside")
        #expect(FileManager.default.createFile(atPath: database, contents: Data(repeating: 0x5A, count: 8192)))
        let broken = try await browser.get("/healthz")
        let notReady = try await browser.get("/readyz")
        try FileManager.default.removeItem(atPath: database)
        try FileManager.default.moveItem(atPath: database + "-aside", toPath: database)
        let again = try await browser.get("/healthz")

        // validate
        #expect(broken.status == 503)
        #expect(broken.body.contains("backend.sqlite is damaged"), "\(broken.body)")
        #expect(!broken.body.contains("auth.sqlite") && !broken.body.contains("front.sqlite"), "only the damaged one is named")
        #expect(!broken.body.contains(live.dataDirectory), "no paths go to whoever asks")
        #expect(notReady.status == 503)
        #expect(again.status == 200 && again.body == "ok")
        await live.stop()
    }

    @Test("/metrics is off by default and for addresses not allowed; allowed, it counts requests, uploads and sizes")
    func metrics() async throws {
        // setup
        let off = try await LiveApp()
        let offAnswer = try await Browser(base: off.base).get("/metrics")
        await off.stop()
        let elsewhere = try await LiveApp { $0.metricsFrom = ["10.0.0.0/8"] }
        let elsewhereAnswer = try await Browser(base: elsewhere.base).get("/metrics")
        await elsewhere.stop()
        let live = try await LiveApp { $0.metricsFrom = ["127.0.0.1", "::1"] }
        let browser = Browser(base: live.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        let posted = try await browser.postPhoto(try gradientJPEG(width: 320, height: 480), csrf: try await browser.createFormToken())
        _ = try await browser.get("/")
        _ = try await browser.get("/no-such-page")

        // act
        let scrape = try await browser.get("/metrics")

        // validate
        #expect(offAnswer.status == 404)
        #expect(elsewhereAnswer.status == 404)
        #expect(posted.status == 303)
        #expect(scrape.status == 200)
        #expect(scrape.contentType == "text/plain; version=0.0.4; charset=utf-8")
        let lines = scrape.body.split(separator: "\n").map(String.init)
        #expect(lines.contains("# TYPE grain_http_requests_total counter"))
        #expect(lines.contains { $0.hasPrefix(#"grain_http_requests_total{group="/",method="GET",status="2xx"} "#) })
        #expect(lines.contains { $0.hasPrefix(#"grain_http_requests_total{group="/",method="GET",status="4xx"} "#) })
        #expect(lines.contains { $0.hasPrefix(#"grain_http_request_duration_seconds_bucket{group="/",le="+Inf"} "#) })
        #expect(lines.contains(#"grain_uploads_total{route="create",outcome="published"} 1"#))
        #expect(lines.contains(#"grain_upstream_calls_total{method="dev.hatk.uploadBlob",outcome="2xx"} 1"#))
        #expect(lines.contains { $0.hasPrefix(#"grain_upstream_call_duration_seconds_count{method="dev.hatk.createRecord"} "#) })
        #expect(lines.contains { $0.hasPrefix(#"grain_database_bytes{file="backend.sqlite"} "#) && !$0.hasSuffix(" 0") })
        #expect(lines.contains { $0.hasPrefix("grain_blob_bytes ") && !$0.hasSuffix(" 0") })
        #expect(lines.contains("grain_image_queue_depth 0"))
        #expect(lines.contains { $0.hasPrefix("grain_sessions ") && !$0.hasSuffix(" 0") })
        #expect(!scrape.body.contains("maya"), "no handle or path is a label")
        await live.stop()
    }

    @Test("--log-format json writes one JSON object a line, each request's lines with its id, the id on its error page, no secrets")
    func jsonLogsWithRequestIDs() async throws {
        // setup: an owner and a member; the owner's disabling of the member is logged inside her request
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("json-logs-\(UUID().uuidString)").path
        let password = "a household password"
        try ServerProcess.addUser("maya", password: password, dataDirectory: data)
        try ServerProcess.addUser("jonas", password: "jonas's password", dataDirectory: data)
        let server = try await ServerProcess(dataDirectory: data, extraArguments: ["--log-format", "json"])
        defer { server.stop() }
        let browser = Browser(base: server.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: password)
        let admin = try await browser.get("/admin")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: admin.body).first)

        // act
        let disabled = try await browser.post("/admin", form: [("csrf", csrf), ("action", "disable"), ("member", "jonas")])
        let missing = try await browser.get("/no-such-page")
        server.stop()

        // validate: the id is on the response and on the error page
        let id = try #require(disabled.requestID)
        #expect(id.count == 12)
        let missingID = try #require(missing.requestID)
        #expect(missing.status == 404)
        #expect(missing.body.contains("Error id: <code>\(missingID)</code>"))
        #expect(missingID != id)
        // validate: log lines are JSON objects; the admin action's line carries the request's id
        // Every line, the start-up lines on standard output included, is a JSON object.
        let logLines = server.output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        #expect(!logLines.isEmpty)
        #expect(logLines.contains { $0.contains(#""event":"serving""#) && $0.contains(#""url":"\#(server.base)"#) })
        var found = false
        for line in logLines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["time"] is String && object["level"] is String && object["subsystem"] is String, "\(line)")
            if (object["message"] as? String)?.contains("disabled jonas.home.test") == true {
                #expect(object["request"] as? String == id)
                #expect(object["admin"] as? String == "member")
                found = true
            }
        }
        #expect(found, "the admin action was logged: \(logLines)")
        let session = try #require(browser.cookie("gs_session"))
        #expect(!server.output.contains(password))
        #expect(!server.output.contains(session))
        #expect(!server.output.contains(csrf))
    }
}
