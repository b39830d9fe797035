import ATProto
import Foundation
import HatkClient
import Lexicon
import Storage
import Synchronization
import Testing

/// SIGKILL in the middle of an upload, against the real executable: after a restart on the same data directory
/// there is no half-written blob, no temporary file, no record pointing at a missing blob, and every SQLite
/// file passes `PRAGMA integrity_check`.
@Suite(.serialized)
struct CrashRecoveryTests {
    static let password = "a household password"

    func freshDataDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)").path
        try ServerProcess.addUser("maya", password: Self.password, dataDirectory: directory)
        return directory
    }

    @Test("SIGKILL while signed-in uploads' bodies are still arriving leaves nothing behind, and the restarted server serves")
    func killWhileBodyStreams() async throws {
        // setup: a member signed in through the front (a session cookie, so /create admits the body and streams it
        // to data/uploads) and as an XRPC client (a real DPoP token, so uploadBlob admits its body)
        let data = try freshDataDirectory()
        let server = try await ServerProcess(dataDirectory: data)
        let browser = Browser(base: server.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: Self.password)
        let session = try #require(browser.cookie("gs_session"))
        let (_, credentials) = try await server.signInForWrites(handle: "maya.home.test", password: Self.password)
        let form = try RawConnection(port: server.port)
        form.send(
            Array(
                ("POST /create HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nCookie: gs_session=\(session)\r\n"
                    + "Content-Type: multipart/form-data; boundary=B\r\nContent-Length: 3000000\r\n\r\n"
                    + "--B\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").utf8))
        let blob = try RawConnection(port: server.port)
        blob.send(
            Array(
                ("POST /xrpc/dev.hatk.uploadBlob HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: DPoP \(credentials.accessToken)\r\n"
                    + "DPoP: eyJ.eyJ.sig\r\nContent-Type: image/jpeg\r\nContent-Length: 3000000\r\n\r\n").utf8))
        let chunk = [UInt8](repeating: 0xA5, count: 64 * 1024)
        for _ in 0..<8 {
            form.send(chunk)
            blob.send(chunk)
            try await Task.sleep(for: .milliseconds(20))
        }
        // The form's body is on disk as it arrives; wait until what was sent is there, so the kill lands mid-body.
        var streamed = 0
        for _ in 0..<250 where streamed < 8 * chunk.count {
            try await Task.sleep(for: .milliseconds(20))
            let names = (try? FileManager.default.contentsOfDirectory(atPath: data + "/uploads")) ?? []
            streamed = names.compactMap { try? FileManager.default.attributesOfItem(atPath: data + "/uploads/" + $0)[.size] as? Int }.max() ?? 0
        }
        let answeredBeforeKill = (form.receive(within: 0.2), blob.receive(within: 0.2))

        // act
        server.kill()
        let leftByKill = blobDebris(in: data)
        let restarted = try await ServerProcess(dataDirectory: data)
        defer { restarted.stop() }

        // validate: both bodies were admitted and still arriving when the server died
        #expect(streamed >= 8 * chunk.count, "the form's body should be streaming into data/uploads; \(streamed) bytes were")
        #expect(answeredBeforeKill.0 == "" && answeredBeforeKill.1 == "", "neither upload was refused: \(answeredBeforeKill)")
        #expect(leftByKill.contains { $0.hasPrefix("uploads/") }, "the kill left the half body behind: \(leftByKill)")
        // and the restart swept what they left
        #expect(blobDebris(in: data) == [])
        #expect(try await Browser(base: restarted.base).get("/healthz").status == 200)
        restarted.stop()
        try expectConsistent(data)
    }

    @Test("SIGKILL while a large blob file is being written leaves nothing half-written after a restart")
    func killWhileBlobIsWritten() async throws {
        // setup: a story whose blob must survive, then a ~4.5 MB blob to kill the server over
        let data = try freshDataDirectory()
        let server = try await ServerProcess(dataDirectory: data)
        let (hatk, credentials) = try await server.signInForWrites(handle: "maya.home.test", password: Self.password)
        let kept = try await hatk.uploadBlob(try gradientJPEG(width: 300, height: 400), mimeType: "image/jpeg", as: credentials)
        let story = StoryRecord(media: kept, aspectRatio: AspectRatio(width: 300, height: 400), createdAt: UTCTime.now.iso8601)
        _ = try await hatk.createRecord(collection: StoryRecord.collection, record: try JSONValue(encoding: story), as: credentials)
        let large = try noiseJPEG(width: 2400, height: 1900, quality: 88)
        #expect(large.count > 2_000_000 && large.count <= 5_000_000, "\(large.count) bytes")

        // act: watch the temporary folder and kill as soon as the original's temporary file holds a megabyte
        let upload = Task { () -> String in
            do {
                _ = try await hatk.uploadBlob(large, mimeType: "image/jpeg", as: credentials)
                return "it completed"
            } catch {
                return "\(error)"
            }
        }
        let caught = await Self.killWhenWriting(server, temporary: data + "/tmp", atLeast: 1_000_000)
        let outcome = await upload.value
        let leftByKill = blobDebris(in: data)
        let restarted = try await ServerProcess(dataDirectory: data)
        defer { restarted.stop() }

        // validate
        #expect(caught, "the kill should land while the blob's temporary file was being written; the upload ended: \(outcome)")
        #expect(blobDebris(in: data) == [], "the restart removes \(leftByKill)")
        #expect(restarted.output.contains("interrupted write") == !leftByKill.isEmpty)
        let image = try await Browser(base: restarted.base).get("/img/feed_thumbnail/\(try did(of: "maya.home.test", in: data))/\(kept.ref.link)")
        #expect(image.status == 200, "the blob written before the crash is intact")
        restarted.stop()
        try expectConsistent(data)
    }

    /// Polls `temporary` from a thread of its own and SIGKILLs the server once a `.part` file has `size` bytes;
    /// gives up (without killing) after 30 seconds.
    static func killWhenWriting(_ server: ServerProcess, temporary: String, atLeast size: Int) async -> Bool {
        let pid = server.process.processIdentifier
        let caught = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let deadline = Date().addingTimeInterval(30)
                while Date() < deadline {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
                    for name in names where name.hasSuffix(".part") {
                        var info = stat()
                        if stat(temporary + "/" + name, &info) == 0, info.st_size >= size {
                            kill(pid, SIGKILL)
                            continuation.resume(returning: true)
                            return
                        }
                    }
                    usleep(200)
                }
                continuation.resume(returning: false)
            }
        }
        server.kill()
        return caught
    }
}

/// The DID of a household handle, read from the backend's database.
func did(of handle: String, in dataDirectory: String) throws -> String {
    let database = try Database(path: dataDirectory + "/backend.sqlite")
    return try #require(try database.read { try $0.queryOne("SELECT did FROM accounts WHERE handle = ?", [handle])?.string("did") })
}

/// Every SQLite file passes `PRAGMA integrity_check`, every blob row has its files, and every record's blobs
/// have rows. Call it with the server stopped.
func expectConsistent(_ dataDirectory: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: dataDirectory).filter { $0.hasSuffix(".sqlite") }
    #expect(files.contains("backend.sqlite"), sourceLocation: sourceLocation)
    for file in files {
        let result = try Database(path: dataDirectory + "/" + file).read {
            try $0.query("PRAGMA integrity_check").compactMap { $0.string("integrity_check") }
        }
        #expect(result == ["ok"], "\(file)", sourceLocation: sourceLocation)
    }
    let backend = try Database(path: dataDirectory + "/backend.sqlite")
    let blobs = try backend.read { try $0.query("SELECT did, cid FROM blobs") }
    for row in blobs {
        let cid = row.string("cid") ?? ""
        for suffix in ["", ".thumb.jpg", ".avatar.jpg"] {
            #expect(
                FileManager.default.fileExists(atPath: dataDirectory + "/blobs/" + cid + suffix), "blob \(cid)\(suffix)",
                sourceLocation: sourceLocation)
        }
    }
    let owned = Set(blobs.map { ($0.string("did") ?? "") + " " + ($0.string("cid") ?? "") })
    for row in try backend.read({ try $0.query("SELECT did, value FROM records") }) {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data((row.string("value") ?? "").utf8))
        for blob in [value["media"], value["avatar"]] {
            guard let cid = blob?["ref"]?["$link"]?.stringValue else { continue }
            #expect(owned.contains((row.string("did") ?? "") + " " + cid), "a record points at blob \(cid)", sourceLocation: sourceLocation)
        }
    }
}
