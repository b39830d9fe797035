import ATProto
import Backend
import Foundation
import Geo
import ImageFixtures
import Imaging
import Lexicon
import Testing

@testable import App
@testable import Server

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Clips a phone or a browser records, through the create form of a running server to the published story: an
/// H.264/AAC MP4 of at most 15 seconds, upright, in BT.709, under 5,000,000 bytes, without a tag, with its poster; and
/// the clips it must refuse, each with a sentence naming the problem and the limit, leaving nothing behind.
@Suite(.serialized)
struct ClipPostingTests {
    static let filmedAt = GPSCoordinate(latitude: 48.8584, longitude: 2.2945)

    /// The fixtures, made with Debian's ffmpeg (the commands are the fixtures: nothing binary is committed).
    static func makeClips(_ fixtures: FixtureDirectory) throws {
        let quiet = ["-hide_banner", "-v", "error", "-y"]
        // An iPhone's HDR clip: HEVC Main 10, HLG, with where it was filmed, to be turned 90° clockwise. Five frames a
        // second keep it quick; the 20 s and 1080p are the issue's. ffmpeg 5.1 writes a display matrix only when
        // copying a stream, reading `rotate` counter-clockwise there.
        try fixtures.run(
            "ffmpeg",
            quiet + [
                "-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=5:d=20", "-f", "lavfi", "-i", "sine=f=440:d=20",
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le",
                "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", "-tag:v", "hvc1",
                "-c:a", "aac", "encoded.mov",
            ])
        try fixtures.run(
            "ffmpeg",
            quiet + [
                "-i", "encoded.mov", "-map", "0", "-c", "copy", "-metadata:s:v:0", "rotate=270",
                "-metadata", "location=+48.8584+002.2945+035.000/", "-movflags", "use_metadata_tags", "hlg.mov",
            ])
        // A portrait phone clip at 60 fps with sound.
        try fixtures.run(
            "ffmpeg",
            quiet + [
                "-f", "lavfi", "-i", "testsrc2=s=720x1280:r=60:d=4", "-f", "lavfi", "-i", "sine=f=660:d=4", "-c:v", "libx264",
                "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "portrait.mp4",
            ])
        // A browser's recording: VP9 in WebM, no sound.
        try fixtures.run(
            "ffmpeg",
            quiet + [
                "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=3", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-b:v", "500k", "silent.webm",
            ])
        try fixtures.run(
            "ffmpeg",
            quiet + [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "short.mp4",
            ])
        // Three hours of a 16 × 16 picture, one frame a minute: small on disk, far too long.
        try fixtures.run(
            "ffmpeg",
            quiet + [
                "-f", "lavfi", "-i", "color=c=blue:s=16x16:r=1/60:d=10800", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                "-r", "1/60", "long.mp4",
            ])
        // A picture that says it is 20000 × 20000: a 16 × 16 Motion JPEG whose frame header is changed to say so.
        try fixtures.run(
            "ffmpeg", quiet + ["-f", "lavfi", "-i", "color=c=gray:s=16x16:d=0.04", "-c:v", "mjpeg", "-f", "mov", "small.mov"])
        try fixtures.write("huge.mov", Self.declaring(20_000, in: try fixtures.read("small.mov")))
        // Sound, a subtitle track and a data track beside the picture.
        try fixtures.write("subtitles.srt", Array("1\n00:00:00,000 --> 00:00:02,000\nHello\n".utf8))
        try fixtures.run(
            "ffmpeg",
            quiet + [
                "-f", "lavfi", "-i", "testsrc2=s=640x480:r=25:d=3", "-f", "lavfi", "-i", "sine=d=3", "-i", "subtitles.srt",
                "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac",
                "-c:s", "mov_text", "-metadata", "title=Holiday", "extras.mp4",
            ])
        // A clip cut short in the middle of its data, and one that is only the start of a file.
        let whole = try fixtures.read("portrait.mp4")
        try fixtures.write("truncated.mp4", Array(whole.prefix(whole.count / 3)))
        try fixtures.write("stub.mp4", Array(whole.prefix(1024)))
    }

    /// A Motion JPEG MOV whose sample description (the width and height 28 bytes into the `jpeg` entry) and frame
    /// header (SOF0: FF C0, length, precision, height, width) both say `edge` × `edge`.
    static func declaring(_ edge: Int, in file: [UInt8]) -> [UInt8] {
        var bytes = file
        let size = [UInt8(edge >> 8), UInt8(edge & 0xFF), UInt8(edge >> 8), UInt8(edge & 0xFF)]
        let entry = Array("jpeg".utf8)
        if let i = (0..<(bytes.count - 32)).first(where: { bytes[$0..<$0 + 4].elementsEqual(entry) }) {
            bytes.replaceSubrange((i + 28)..<(i + 32), with: size)
        }
        if let i = (0..<(bytes.count - 9)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) {
            bytes.replaceSubrange((i + 5)..<(i + 9), with: size)
        }
        return bytes
    }

    /// ffprobe's reading of a file, as JSON.
    static func probe(_ path: String) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The top-level boxes of an MP4, in order.
    static func boxes(_ bytes: [UInt8]) -> [String] {
        var names: [String] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if size == 1, offset + 16 <= bytes.count { size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            names.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return names
    }

    struct Published {
        var record: StoryRecord
        var mp4: [UInt8]
        var path: String
        var format: [String: Any]
        var video: [String: Any]
        var audio: [String: Any]?
        var streams: [[String: Any]]
    }

    func publishedClip(_ live: LiveApp) throws -> Published {
        let record = try UploadPipelineTests().latestStory(live, handle: "maya.home.test")
        #expect(record.media.mimeType == "video/mp4")
        let path = try #require(live.app.backend?.blobs.path(cid: record.media.cid, preset: .fullsize))
        let probed = try Self.probe(path)
        let streams = try #require(probed["streams"] as? [[String: Any]])
        return Published(
            record: record, mp4: try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), path: path,
            format: try #require(probed["format"] as? [String: Any]),
            video: try #require(streams.first { $0["codec_type"] as? String == "video" }),
            audio: streams.first { $0["codec_type"] as? String == "audio" }, streams: streams)
    }

    /// What every story clip is, whatever it was made from.
    func expectStoryClip(_ clip: Published, _ name: String) {
        #expect(clip.video["codec_name"] as? String == "h264", "\(name)")
        #expect(clip.video["profile"] as? String == "High", "\(name)")
        #expect(clip.video["pix_fmt"] as? String == "yuv420p", "\(name)")
        #expect(clip.video["color_primaries"] as? String == "bt709", "\(name)")
        #expect(clip.video["color_transfer"] as? String == "bt709", "\(name)")
        #expect(clip.video["color_space"] as? String == "bt709", "\(name)")
        let width = clip.video["width"] as? Int ?? 0
        let height = clip.video["height"] as? Int ?? 0
        #expect(max(width, height) <= 1280 && width > 0, "\(name): \(width) × \(height)")
        #expect(clip.record.aspectRatio == AspectRatio(width: width, height: height), "\(name)")
        let rate = (clip.video["avg_frame_rate"] as? String ?? "0/1").split(separator: "/").compactMap { Double($0) }
        #expect(rate.count == 2 && rate[1] > 0 && rate[0] / rate[1] <= 30.01, "\(name): \(rate)")
        let duration = Double(clip.format["duration"] as? String ?? "") ?? 99
        #expect(duration <= 15.05, "\(name): \(duration) s")
        #expect(clip.mp4.count < 5_000_000, "\(name): \(clip.mp4.count) bytes")
        let boxes = Self.boxes(clip.mp4)
        #expect(
            (boxes.firstIndex(of: "moov") ?? .max) < (boxes.firstIndex(of: "mdat") ?? -1), "\(name): faststart, the index first: \(boxes)")
        let tags = (clip.format["tags"] as? [String: Any] ?? [:]).keys.filter { !["major_brand", "minor_version", "compatible_brands"].contains($0) }
        #expect(tags.isEmpty, "\(name): no metadata, found \(tags)")
        for stream in clip.streams {
            // What every MP4 track says (its language and handler), and the encoder's name without a version, which
            // ffmpeg 5.1 writes whatever it is told: nothing about the clip, the phone or the person.
            let tags = stream["tags"] as? [String: Any] ?? [:]
            let streamTags = tags.keys.filter { !["language", "handler_name", "vendor_id", "encoder"].contains($0) }
            #expect(streamTags.isEmpty, "\(name): no stream metadata, found \(streamTags)")
            #expect(!(tags["encoder"] as? String ?? "").contains("."), "\(name): no encoder version")
            #expect((stream["side_data_list"] as? [[String: Any]] ?? []).isEmpty, "\(name): no display matrix or other side data")
            #expect(["video", "audio"].contains(stream["codec_type"] as? String ?? ""), "\(name): only picture and sound")
        }
        #expect(!String(decoding: clip.mp4, as: UTF8.self).contains("+48.8584"), "\(name): the place is nowhere in the file")
    }

    func expectNothingLeft(_ live: LiveApp, _ name: String) throws {
        let uploads = try FileManager.default.contentsOfDirectory(atPath: live.dataDirectory + "/uploads")
        #expect(uploads.isEmpty, "\(name): every upload and transcode is removed: \(uploads)")
        let temporary = try FileManager.default.contentsOfDirectory(atPath: live.dataDirectory + "/tmp")
        #expect(temporary.isEmpty, "\(name): the backend keeps nothing of a check: \(temporary)")
    }

    @Test("phone and browser clips post through the form as 15-second H.264/AAC stories with posters, ranges and no metadata")
    func clipsThroughTheForm() async throws {
        let fixtures = try FixtureDirectory()
        try Self.makeClips(fixtures)
        let live = try await LiveApp(demo: true)
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        let form = UploadPipelineTests()
        let form2 = try await browser.get("/create")
        #expect(form2.body.contains("video/*"), "the household's form offers clips")

        // The HDR clip, from 2 s in: upright (portrait), tone-mapped, placed by its location, which is published only as
        // the H3 cell.
        var posted = try await form.postForm(
            browser, photo: try fixtures.read("hlg.mov"), type: "video/quicktime", fields: [("useLocation", "on"), ("location", ""), ("start", "2")])
        #expect(posted.status == 303, "\(posted.status) \(posted.body.prefix(400))")
        let hdr = try publishedClip(live)
        expectStoryClip(hdr, "HLG MOV")
        #expect(hdr.video["width"] as? Int == 720 && hdr.video["height"] as? Int == 1280, "the rotation is in the pixels")
        let duration = Double(hdr.format["duration"] as? String ?? "") ?? 0
        #expect(abs(duration - 15) < 0.3, "15 s cut from a 20 s clip: \(duration)")
        #expect(hdr.audio?["codec_name"] as? String == "aac" && hdr.audio?["profile"] as? String == "LC")
        let cell = H3.cell(latitude: Self.filmedAt.latitude, longitude: Self.filmedAt.longitude, resolution: 10)?.description
        #expect(hdr.record.location?.value == cell, "the clip's location becomes its H3 cell: \(String(describing: hdr.record.location))")

        // Its poster and thumbnail are JPEGs of the clip's size; the MP4 answers ranges with the right bytes.
        let poster = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: try #require(live.app.backend?.blobs.path(cid: hdr.record.media.cid, preset: .poster)))))
        #expect(Imaging.sniff(poster) == .jpeg)
        let posterImage = try Imaging.decode(poster)
        #expect(posterImage.width == 720 && posterImage.height == 1280)
        let did = try #require(try live.app.backend?.store.accounts.account("maya.home.test")).did.rawValue
        var request = URLRequest(url: URL(string: live.base + "/img/feed_fullsize/\(did)/\(hdr.record.media.cid)")!)
        request.setValue("bytes=1000-1999", forHTTPHeaderField: "Range")
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 206)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "video/mp4")
        #expect(http.value(forHTTPHeaderField: "Accept-Ranges") == "bytes")
        #expect(http.value(forHTTPHeaderField: "Content-Range") == "bytes 1000-1999/\(hdr.mp4.count)")
        #expect([UInt8](data) == Array(hdr.mp4[1000..<2000]))
        // The story's page shows the clip with its poster, and its view carries the clip's length.
        let rkey = try #require(try live.app.backend?.store.records.records(of: did, collection: StoryRecord.collection).first?.uri.rkey)
        let story = try await browser.get("/profile/\(did)/story/\(rkey)")
        #expect(story.body.contains("<video"), "\(story.body.prefix(300))")

        for (file, type, name) in [
            ("portrait.mp4", "video/mp4", "portrait H.264 at 60 fps"), ("silent.webm", "video/webm", "VP9 WebM without sound"),
            ("short.mp4", "video/mp4", "2 s clip"), ("extras.mp4", "video/mp4", "clip with subtitles and a title"),
        ] {
            posted = try await form.postForm(browser, photo: try fixtures.read(file), type: type, fields: [("location", "")])
            #expect(posted.status == 303, "\(name): \(posted.status) \(posted.body.prefix(400))")
            let clip = try publishedClip(live)
            expectStoryClip(clip, name)
            switch file {
            case "portrait.mp4":
                #expect(clip.video["width"] as? Int == 720 && clip.video["height"] as? Int == 1280)
                #expect(clip.audio?["codec_name"] as? String == "aac")
            case "silent.webm":
                #expect(clip.audio == nil, "no sound track is made up")
            case "short.mp4":
                #expect(abs((Double(clip.format["duration"] as? String ?? "") ?? 0) - 2) < 0.2)
            default:
                #expect(clip.streams.count == 2, "the subtitle track is dropped")
            }
        }
        try expectNothingLeft(live, "accepted clips")
    }

    @Test("clips that are too long, too large, damaged or not video are refused with a sentence naming the limit; nothing is posted")
    func badClipsAreRefused() async throws {
        let fixtures = try FixtureDirectory()
        try Self.makeClips(fixtures)
        let live = try await LiveApp(demo: true) { $0.maxVideoBytes = 3_000_000 }
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        let form = UploadPipelineTests()
        let before = try form.latestStory(live, handle: "maya.home.test")
        for (file, status, phrase) in [
            ("long.mp4", 422, "10 minutes"), ("huge.mov", 422, "8192 × 8192"), ("truncated.mp4", 422, "damaged"),
            ("stub.mp4", 422, "damaged"), ("hlg.mov", 413, "3 MB"),
        ] {
            let posted = try await form.postForm(browser, photo: try fixtures.read(file), type: "video/mp4", fields: [("location", "")])
            #expect(posted.status == status, "\(file): \(posted.status) \(posted.body.prefix(600))")
            #expect(posted.body.contains(phrase), "\(file): the message names \(phrase): \(posted.body.prefix(3000))")
            #expect(posted.body.contains(#"name="photo""#), "\(file): the form again")
        }
        #expect(try form.latestStory(live, handle: "maya.home.test") == before, "nothing was posted")
        try expectNothingLeft(live, "refused clips")
    }
}
