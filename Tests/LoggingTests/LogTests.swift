import Foundation
import Logging
import Synchronization
import Testing

struct LogTests {
    /// A JSON line is one object with the time, level, subsystem and message, and a line written while a request
    /// is handled carries that request's id.
    @Test("JSON lines carry the request id of the task they are written in")
    func jsonWithRequestID() async throws {
        // setup: capture lines; this test's own lines are the ones with its subsystem
        let lines = Mutex<[String]>([])
        var settings = Log.Settings()
        settings.format = .json
        settings.sink = { line in lines.withLock { $0.append(line) } }
        Log.configure(settings)
        defer { Log.configure(Log.Settings()) }
        let log = Logger("log-test")

        // act
        await LogContext.$requestID.withValue("abc123def456") {
            await Task { log.warning("inside a request", fields: ["admin": "member"]) }.value
        }
        log.info("outside")

        // validate
        let mine = lines.withLock { $0 }.filter { $0.contains("\"log-test\"") }
        #expect(mine.count == 2)
        let inside = try #require(try JSONSerialization.jsonObject(with: Data(mine[0].utf8)) as? [String: String])
        #expect(inside["request"] == "abc123def456")
        #expect(inside["level"] == "warning" && inside["message"] == "inside a request" && inside["admin"] == "member")
        #expect(inside["time"] != nil)
        let outside = try #require(try JSONSerialization.jsonObject(with: Data(mine[1].utf8)) as? [String: String])
        #expect(outside["request"] == nil)
    }
}
