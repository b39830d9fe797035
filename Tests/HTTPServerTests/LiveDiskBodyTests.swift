import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LiveTests {
    /// Bodies streamed to a temporary file: every byte arrives, the limit holds while streaming, and the file is
    /// gone however the request ends.
    struct LiveDiskBodyTests {
        /// What the handler saw of its body file.
        struct Seen: Sendable, Equatable {
            var path = ""
            var count = 0
            var hash = ""
            var existed = false
            var inMemory = false
        }

        private func router(_ directory: String, seen: Shared<Seen>, keep: String? = nil) -> Router {
            var router = Router()
            let storage = BodyStorage.temporaryFile(directory: directory)
            router.on(.post, "/upload", bodyLimit: 4_000_000, bodyStorage: storage) { request in
                guard case .file(let file) = request.body else {
                    seen.withLock { $0.inMemory = true }
                    return .text("in memory")
                }
                var hasher = FNV1a()
                hasher.combine(try request.body.load())
                seen.withLock {
                    $0 = Seen(
                        path: file.path, count: file.count, hash: hasher.hexDigest,
                        existed: FileManager.default.fileExists(atPath: file.path))
                }
                if let keep { try file.persist(to: keep) }
                return .text("stored \(file.count)")
            }
            router.on(.post, "/small", bodyLimit: 1024, bodyStorage: storage) { request in .text("small \(request.body.count)") }
            router.on(.post, "/throws", bodyStorage: storage) { _ in throw HTTPError(.conflict, "no") }
            router.on(.post, "/slow", bodyStorage: storage) { request in
                seen.withLock { $0.path = request.body.count > 0 ? "slow" : "" }
                try await Task.sleep(for: .seconds(30))
                return .text("late")
            }
            router.on(.post, "/form", bodyLimit: 4_000_000, bodyStorage: storage) { request in
                let form = try request.multipartForm()
                guard let photo = form["photo"], case .file(let range) = photo.body else { return .text("photo not on disk") }
                var hasher = FNV1a()
                hasher.combine(try range.read(0..<range.count))
                return .text("\(form.text("csrf") ?? "-") \(photo.filename ?? "-") \(range.count) \(hasher.hexDigest)")
            }
            return router
        }

        private static func pattern(_ count: Int) -> [UInt8] {
            var state: UInt32 = 2_463_534_242
            return (0..<count).map { _ in
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                return UInt8(truncatingIfNeeded: state)
            }
        }

        private func files(_ directory: TemporaryDirectory) -> [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        }

        @Test("a body streamed to disk reaches the handler as a file with every byte; the file is gone after the response")
        func streamedToDisk() async throws {
            // setup
            let directory = try TemporaryDirectory()
            let seen = Shared(Seen())
            let live = try LiveServer.start(router(directory.path, seen: seen))
            let body = Self.pattern(3_000_000)
            var hasher = FNV1a()
            hasher.combine(body)

            // act
            let (status, _, data) = try await live.fetch("/upload", method: "POST", body: Data(body))
            let (emptyStatus, _, emptyData) = try await live.fetch("/small", method: "POST", body: Data())
            let left = files(directory)
            await live.stop()

            // validate
            let handler = seen.withLock { $0 }
            #expect(status == 200)
            #expect(String(decoding: data, as: UTF8.self) == "stored 3000000")
            #expect(handler.count == 3_000_000)
            #expect(handler.hash == hasher.hexDigest)
            #expect(handler.existed)
            #expect(handler.path.hasPrefix(directory.path + "/body-") && handler.path.hasSuffix(".tmp"))
            #expect(!handler.inMemory)
            #expect(emptyStatus == 200 && String(decoding: emptyData, as: UTF8.self) == "small 0")
            #expect(left.isEmpty, "left behind: \(left)")
        }

        @Test("a chunked body that outgrows the limit on disk gets 413 and leaves no file")
        func limitWhileStreaming() async throws {
            let directory = try TemporaryDirectory()
            let live = try LiveServer.start(router(directory.path, seen: Shared(Seen())))
            let port = live.port
            let chunk = "258\r\n" + String(repeating: "x", count: 600) + "\r\n"

            let (bytes, end) = try await RawConnection.run {
                let connection = try RawConnection(port: port, receiveTimeout: 10)
                connection.send("POST /small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk + chunk + "0\r\n\r\n")
                return connection.readUntilEnd()
            }
            let left = files(directory)
            await live.stop()

            #expect(RawResponse(parsingHeadOf: bytes)?.status == 413)
            #expect(end == .closed)
            #expect(left.isEmpty, "left behind: \(left)")
        }

        @Test("a handler that throws has its body file removed too")
        func handlerThrows() async throws {
            let directory = try TemporaryDirectory()
            let live = try LiveServer.start(router(directory.path, seen: Shared(Seen())))

            let (status, _, _) = try await live.fetch("/throws", method: "POST", body: Data(Self.pattern(10_000)))
            let left = files(directory)
            await live.stop()

            #expect(status == 409)
            #expect(left.isEmpty, "left behind: \(left)")
        }

        @Test("a client that vanishes mid-upload leaves no body file, and the server goes on serving")
        func clientVanishes() async throws {
            // setup: the 1 s inactivity timeout bounds how long MHD takes to notice
            let directory = try TemporaryDirectory()
            let live = try LiveServer.start(router(directory.path, seen: Shared(Seen()))) {
                $0.connectionTimeout = 1
                $0.logsProtocolErrors = false
            }
            let port = live.port

            // act: half of a 2 MB body, then the socket closes
            let appeared = try await RawConnection.run {
                let connection = try RawConnection(port: port)
                connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n")
                connection.send(Self.pattern(1_000_000))
                Thread.sleep(forTimeInterval: 0.2)
                return (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.count ?? 0
            }
            try await waitUntil { files(directory).isEmpty }
            let left = files(directory)
            let (after, _, _) = try await live.fetch("/small", method: "POST", body: Data("ok".utf8))
            try await waitUntil { live.server.core.openExchanges.load(ordering: .relaxed) == 0 }
            let open = live.server.core.openExchanges.load(ordering: .relaxed)
            await live.stop()

            // validate
            #expect(appeared == 1, "the body was being written to its file")
            #expect(left.isEmpty, "left behind: \(left)")
            #expect(after == 200)
            #expect(open == 0)
        }

        @Test("shutdown during an upload, and during a handler holding its body, removes the body files")
        func shutdownMidUpload() async throws {
            let directory = try TemporaryDirectory()
            let seen = Shared(Seen())
            let live = try LiveServer.start(router(directory.path, seen: seen)) {
                $0.shutdownGracePeriod = .milliseconds(200)
                $0.logsProtocolErrors = false
            }
            let port = live.port
            let uploading = Task {
                try await RawConnection.run {
                    let connection = try RawConnection(port: port, receiveTimeout: 10)
                    connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n")
                    connection.send(Self.pattern(500_000))
                    return connection.readUntilEnd().end
                }
            }
            let handling = Task {
                try await RawConnection.run {
                    let connection = try RawConnection(port: port, receiveTimeout: 10)
                    connection.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
                    return connection.readUntilEnd().end
                }
            }
            try await waitUntil { files(directory).count == 2 && seen.withLock { $0.path } == "slow" }
            let during = files(directory).count

            await live.stop()
            _ = try await uploading.value
            _ = try await handling.value
            let left = files(directory)

            #expect(during == 2)
            #expect(left.isEmpty, "left behind: \(left)")
        }

        @Test("a multipart body on disk parses with its text fields in memory and its file part as a range of the body file")
        func multipartOnDisk() async throws {
            let directory = try TemporaryDirectory()
            let live = try LiveServer.start(router(directory.path, seen: Shared(Seen())))
            let photo = Self.pattern(1_500_000)
            var hasher = FNV1a()
            hasher.combine(photo)
            var body = Array("--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\ntoken\r\n".utf8)
            body += Array("--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.jpg\"\r\n\r\n".utf8)
            body += photo + Array("\r\n--XyZ--\r\n".utf8)
            var request = URLRequest(url: live.url("/form"))
            request.httpMethod = "POST"
            request.setValue("multipart/form-data; boundary=XyZ", forHTTPHeaderField: "Content-Type")

            let (data, _) = try await live.session.upload(for: request, from: Data(body))
            let left = files(directory)
            await live.stop()

            #expect(String(decoding: data, as: UTF8.self) == "token p.jpg 1500000 \(hasher.hexDigest)")
            #expect(left.isEmpty)
        }

        @Test("persist(to:) keeps a body past its request; the temporary file itself is gone")
        func persistKeepsBody() async throws {
            let directory = try TemporaryDirectory()
            let keep = directory.path + "/kept.bin"
            let live = try LiveServer.start(router(directory.path, seen: Shared(Seen()), keep: keep))
            let body = Self.pattern(200_000)

            let (status, _, _) = try await live.fetch("/upload", method: "POST", body: Data(body))
            let left = files(directory)
            let kept = FileManager.default.contents(atPath: keep).map { Array($0) }
            await live.stop()

            #expect(status == 200)
            #expect(left == ["kept.bin"])
            #expect(kept == body)
        }
    }
}
