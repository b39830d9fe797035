import ATProto
import Foundation
import HatkClient
import Imaging
import Lexicon
import Storage
import Testing

/// A real file size limit (`ulimit -f`, RLIMIT_FSIZE) on the real executable: the server ignores SIGXFSZ, so a
/// blob larger than the limit fails with EFBIG, which is reported like a full disk.
@Suite(.serialized)
struct DiskFullTests {
    static let password = "a household password"
    /// Room for the SQLite files of a short session, not for a photo of several hundred kilobytes.
    static let limitKiB = 512

    @Test("past the file size limit an upload gets 507 over XRPC and a clear form page, leaves nothing, and the server serves on")
    func fileSizeLimit() async throws {
        // setup
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)").path
        try ServerProcess.addUser("maya", password: Self.password, dataDirectory: data)
        let large = try noiseJPEG(width: 1000, height: 800)
        let photo = try noiseJPEG(width: 1400, height: 1000, seed: 2)
        let processed = try ImagePipeline.process(photo, options: PipelineOptions())
        try #require(large.count > Self.limitKiB * 1024 && processed.jpeg.count > Self.limitKiB * 1024)
        let server = try await ServerProcess(dataDirectory: data, fileSizeLimitKiB: Self.limitKiB)
        defer { server.stop() }
        let (hatk, credentials) = try await server.signInForWrites(handle: "maya.home.test", password: Self.password)

        // act: over XRPC
        var refusal: HatkError?
        do { _ = try await hatk.uploadBlob(large, mimeType: "image/jpeg", as: credentials) } catch { refusal = error }
        let debrisAfterXRPC = blobDebris(in: data)
        let largeStored = FileManager.default.fileExists(atPath: data + "/blobs/" + CID(hashing: large, codec: .raw).description)
        let small = try await hatk.uploadBlob(try gradientJPEG(width: 200, height: 150), mimeType: "image/jpeg", as: credentials)

        // act: through the front's form
        let browser = Browser(base: server.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: Self.password)
        let page = try await browser.postPhoto(photo, csrf: try await browser.createFormToken())

        // validate
        #expect(refusal?.kind == .http(status: 507, error: "InsufficientStorage"))
        #expect(debrisAfterXRPC == [])
        #expect(!largeStored)
        #expect(FileManager.default.fileExists(atPath: data + "/blobs/" + small.cid), "a blob under the limit is stored")
        // The body could not even be stored, so the server answers before the form's handler runs.
        #expect(page.status == 507)
        #expect(page.body.contains("run out of storage space"))
        #expect(blobDebris(in: data) == [])
        #expect(try await browser.get("/healthz").status == 200)
        #expect(try await browser.get("/").status == 200)
        #expect(!server.output.contains("File size limit exceeded"))
        server.stop()
        let rows = try Database(path: data + "/backend.sqlite").read {
            try $0.query("SELECT cid FROM blobs").compactMap { $0.string("cid") }
        }
        #expect(rows == [small.cid], "no row for a blob that did not fit")
        try expectConsistent(data)
    }
}
