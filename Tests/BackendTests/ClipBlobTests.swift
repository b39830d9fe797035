import ATProto
import Backend
import Foundation
import HTTPServer
import Imaging
import Lexicon
import TestSupport
import Testing
import Video

/// `video/mp4` blobs in the embedded backend: checked in a child process whoever sends them, given a poster, served
/// with ranges, and shown in story views as a clip with its length.
@Suite struct ClipBlobTests {
    /// Runs Debian's ffmpeg to make a fixture; the arguments are the fixture.
    static func ffmpeg(_ arguments: [String], output: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-hide_banner", "-v", "error", "-y"] + arguments + [output]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ffmpeg \(arguments)")
        defer { unlink(output) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// A story clip as the front makes one: H.264 High, yuv420p, AAC, the index first, no tags.
    static func storyClip(seconds: Int = 2, extra: [String] = []) throws -> [UInt8] {
        try ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=\(seconds)", "-f", "lavfi", "-i", "sine=d=\(seconds)", "-c:v", "libx264",
                "-profile:v", "high", "-pix_fmt", "yuv420p", "-c:a", "aac", "-map_metadata", "-1", "-movflags", "+faststart",
            ] + extra,
            output: FileManager.default.temporaryDirectory.appendingPathComponent("clip-\(UUID().uuidString).mp4").path)
    }

    static let clipScope = HeaderAuthenticator.grainScope + " blob:video/mp4"

    @Test("a backend without a clip processor refuses video/mp4 with 415, naming what it accepts")
    func refusedWithoutProcessor() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let (status, json) = await f.post("dev.hatk.uploadBlob", as: maya, scope: Self.clipScope, contentType: "video/mp4", body: [0, 0, 0, 8])
        #expect(status == 415)
        #expect(json?["error"]?.stringValue?.contains("image/jpeg and image/png") == true)
    }

    @Test("a story clip is stored with its poster, thumbnail and avatar; its view carries the clip and its length; ranges answer 206")
    func storedServedAndViewed() async throws {
        let f = try BackendFixture(clips: ClipProcessor())
        let maya = try f.account("maya")
        let clip = try Self.storyClip()

        // Grain's scope grants images only: a clip needs blob:video/mp4.
        let refused = await f.post("dev.hatk.uploadBlob", as: maya, contentType: "video/mp4", body: clip)
        #expect(refused.status == 401 && refused.json?["error"]?.stringValue == "ScopeMissingError")
        let (status, json) = await f.post("dev.hatk.uploadBlob", as: maya, scope: Self.clipScope, contentType: "video/mp4", body: clip)
        #expect(status == 200, "\(String(describing: json))")
        let blob = try #require(json?["blob"])
        let cid = try #require(blob["ref"]?["$link"]?.stringValue)
        #expect(blob["mimeType"]?.stringValue == "video/mp4")
        for preset in BlobStore.Preset.allCases {
            #expect(FileManager.default.fileExists(atPath: f.backend.blobs.path(cid: cid, preset: preset)), "\(preset)")
        }
        let poster = try [UInt8](Data(contentsOf: URL(fileURLWithPath: f.backend.blobs.path(cid: cid, preset: .poster))))
        let picture = try Imaging.decode(poster)
        #expect(Imaging.sniff(poster) == .jpeg && picture.width == 320 && picture.height == 240)

        let record: JSONValue = .object([
            "collection": .string(StoryRecord.collection),
            "record": .object([
                "$type": .string(StoryRecord.collection), "media": blob,
                "aspectRatio": .object(["width": .number(320), "height": .number(240)]), "createdAt": .string(f.clock.now.iso8601),
            ]),
        ])
        #expect(await f.post("dev.hatk.createRecord", as: maya, json: record).status == 200)
        let (_, stories, _) = await f.get("/xrpc/social.grain.unspecced.getStories", query: "actor=\(maya.rawValue)", as: maya)
        guard case .array(let views)? = stories?["stories"] else {
            Issue.record("no stories in \(String(describing: stories))")
            return
        }
        let view = try #require(views.first)
        #expect(view["video"]?["url"]?.stringValue == "http://stories.test/img/feed_fullsize/\(maya.rawValue)/\(cid)")
        let length = Int(view["video"]?["durationMs"]?.intValue ?? 0)
        #expect(abs(length - 2000) < 100, "\(length) ms")
        #expect(view["fullsize"]?.stringValue == "http://stories.test/img/video_poster/\(maya.rawValue)/\(cid)", "pictured by its poster")

        let ranged = await f.router.respond(
            to: Request(method: .get, path: "/img/feed_fullsize/\(maya.rawValue)/\(cid)", headers: ["Range": "bytes=0-99"]))
        #expect(ranged.status == .partialContent)
        #expect(ranged.headers["Content-Type"] == "video/mp4")
        #expect(ranged.headers["Content-Range"] == "bytes 0-99/\(clip.count)")
        let still = await f.router.respond(to: Request(method: .get, path: "/img/video_poster/\(maya.rawValue)/\(cid)"))
        #expect(still.status == .ok && still.headers["Content-Type"] == "image/jpeg")
    }

    @Test("an MP4 that is not a story clip (VP9, a recorded place, garbage) is refused with a sentence, and nothing is kept")
    func notOurClipsRefused() async throws {
        let f = try BackendFixture(clips: ClipProcessor())
        let maya = try f.account("maya")
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("clip-\(UUID().uuidString).mp4").path
        let vp9 = try Self.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=1", "-c:v", "libvpx-vp9", "-deadline", "realtime"], output: temporary)
        let placed = try Self.storyClip(extra: ["-metadata", "location=+48.8584+002.2945/"])
        for (name, bytes) in [("VP9", vp9), ("a recorded place", placed), ("garbage", [UInt8](repeating: 7, count: 5000))] {
            let (status, json) = await f.post("dev.hatk.uploadBlob", as: maya, scope: Self.clipScope, contentType: "video/mp4", body: bytes)
            #expect(status == 400, "\(name): \(status) \(String(describing: json))")
            #expect((json?["error"]?.stringValue ?? "").count > 20, "\(name): a sentence, \(String(describing: json))")
        }
        let stored = try FileManager.default.contentsOfDirectory(atPath: f.directory + "/blobs")
        #expect(stored.isEmpty, "no blob files: \(stored)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: f.directory + "/tmp")
        #expect(leftovers.isEmpty, "nothing of a check is left: \(leftovers)")
    }

    @Test("a blob's body streams to a file beside the blobs, and a clip sent so is stored from that file with its bytes intact")
    func clipBodyOnDisk() async throws {
        let f = try BackendFixture(clips: ClipProcessor())
        let maya = try f.account("maya")
        #expect(f.router.bodyStorage(method: .post, path: "/xrpc/dev.hatk.uploadBlob") == .temporaryFile(directory: f.directory + "/tmp"))
        #expect(f.router.bodyStorage(method: .post, path: "/xrpc/dev.hatk.createRecord") == .memory)

        let clip = try Self.storyClip()
        // As the server hands it over: a body file in the blobs' temporary directory, named as the server names them.
        let arrived = f.directory + "/tmp/body-" + String(repeating: "a", count: 32) + ".tmp"
        #expect(FileManager.default.createFile(atPath: arrived, contents: Data(clip)))
        let headers: HTTPHeaders = ["Content-Type": "video/mp4", "X-Test-Viewer": maya.rawValue, "X-Test-Scope": Self.clipScope]
        let response = await f.router.respond(
            to: Request(
                method: .post, path: "/xrpc/dev.hatk.uploadBlob", headers: headers,
                body: .file(BodyFile(path: arrived, count: clip.count))))
        #expect(response.status == .ok)
        guard case .bytes(let answer) = response.body else { Issue.record("a JSON answer"); return }
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(answer))
        let cid = try #require(json["blob"]?["ref"]?["$link"]?.stringValue)
        #expect(cid == CID(hashing: clip, codec: .raw).description)
        #expect(json["blob"]?["size"]?.intValue == Int64(clip.count))
        let stored = try Data(contentsOf: URL(fileURLWithPath: f.backend.blobs.path(cid: cid, preset: .fullsize)))
        #expect([UInt8](stored) == clip)
        for preset in [BlobStore.Preset.poster, .thumbnail, .avatar] {
            #expect(FileManager.default.fileExists(atPath: f.backend.blobs.path(cid: cid, preset: preset)), "\(preset)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: f.directory + "/tmp").filter {
            $0 != "body-" + String(repeating: "a", count: 32) + ".tmp"
        }
        #expect(leftovers.isEmpty, "nothing of the check is left: \(leftovers)")
    }
}
