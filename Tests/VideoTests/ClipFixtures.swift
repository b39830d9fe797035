import Foundation
import TestSupport

@testable import Video

/// Clips made by Debian's ffmpeg from lavfi sources, each once per test run (the first test to ask makes it, the
/// others wait for it) in one temporary directory removed when the test process exits. Nothing binary is committed.
enum ClipFixtures {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let directory: String = {
        let directory = TemporaryDirectory("video-fixtures").path
        atexit { try? FileManager.default.removeItem(atPath: ClipFixtures.directory) }
        return directory
    }()

    /// A fresh directory for one test's outputs, under the fixtures' directory so it goes with it.
    static func outputDirectory() -> String {
        let path = directory + "/out-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// 20 s of 1080p HEVC Main 10, HLG (BT.2020), shot "upright" (to be turned 90° clockwise), with a location and
    /// sound: an iPhone's clip in miniature. 5 frames per second keeps it quick to make and to transcode.
    static func hlgPortrait() async throws -> String {
        try await cache.file("hlg.mov") { path in
            let encoded = path + ".encoded.mov"
            try await ffmpeg(
                ["-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=5:d=20", "-f", "lavfi", "-i", "sine=f=440:d=20"]
                    + ["-c:v", "libx265", "-preset", "ultrafast", "-crf", "30", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le"]
                    + ["-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", "-tag:v", "hvc1"]
                    + ["-c:a", "aac", encoded])
            // ffmpeg 5.1 writes a display matrix only when stream-copying, and reads `rotate` counter-clockwise
            // there: 270 gives the matrix a phone writes for a picture to be turned 90° clockwise.
            try await ffmpeg(
                ["-i", encoded, "-map", "0", "-c", "copy", "-metadata:s:v:0", "rotate=270"]
                    + ["-metadata", "location=+48.8584+002.2945+035.000/", "-movflags", "use_metadata_tags", path])
            try FileManager.default.removeItem(atPath: encoded)
        }
    }

    static let mutedFrames = "testsrc2=s=320x180:r=10:d=1,hue=s=0.25"

    /// 1 s of testsrc2 with its colours muted, as HLG HEVC Main 10, for judging the tone-mapping's brightness.
    static func mutedHLG() async throws -> String {
        try await cache.file("muted-hlg.mov") { path in
            try await ffmpeg(
                ["-f", "lavfi", "-i", mutedFrames, "-c:v", "libx265", "-preset", "ultrafast", "-crf", "10", "-x265-params", "log-level=error"]
                    + ["-pix_fmt", "yuv420p10le", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", path])
        }
    }

    /// The same frames as ``mutedHLG()``'s, as SDR BT.709 H.264.
    static func mutedSDR() async throws -> String {
        try await cache.file("muted-sdr.mp4") { path in
            try await ffmpeg(
                ["-f", "lavfi", "-i", mutedFrames, "-c:v", "libx264", "-preset", "ultrafast", "-crf", "10", "-pix_fmt", "yuv420p"]
                    + ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", path])
        }
    }

    /// A portrait H.264 MP4 with AAC sound, 3 s.
    static func portraitWithSound() async throws -> String {
        try await cache.file("portrait.mp4") { path in
            try await ffmpeg(
                ["-f", "lavfi", "-i", "testsrc2=s=360x640:r=30:d=3", "-f", "lavfi", "-i", "sine=f=440:d=3"]
                    + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "1", path])
        }
    }

    /// A silent VP9 WebM, 2 s.
    static func silentVP9() async throws -> String {
        try await cache.file("silent.webm") { path in
            try await ffmpeg(
                ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"]
                    + ["-b:v", "300k", path])
        }
    }

    /// 2 s at 60 frames per second, H.264 and AAC.
    static func twoSecondsAt60() async throws -> String {
        try await cache.file("short60.mp4") { path in
            try await ffmpeg(
                ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=60:d=2", "-f", "lavfi", "-i", "sine=d=2"]
                    + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", path])
        }
    }

    /// 20 s of H.264 whose picture is grey with luma 16 + 10 × the second it is shown at, so a frame tells its time.
    static func twentySecondRamp() async throws -> String {
        try await cache.file("ramp.mp4") { path in
            try await ffmpeg(
                ["-f", "lavfi", "-i", "color=s=64x36:r=10:d=20,format=yuv420p,geq=lum='16+10*T':cb=128:cr=128"]
                    + ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "10", "-pix_fmt", "yuv420p", path])
        }
    }

    /// 1920 × 1080 H.264 in an MP4, 1 s: within the input limits, too wide for a story.
    static func wideH264() async throws -> String {
        try await cache.file("wide.mp4") { path in
            try await ffmpeg(["-f", "lavfi", "-i", "color=c=teal:s=1920x1080:r=10:d=1", "-c:v", "libx264", "-preset", "ultrafast", path])
        }
    }

    /// Three hours of a 16 × 16 picture at one frame a second.
    static func threeHours() async throws -> String {
        try await cache.file("3h.mp4") { path in
            try await ffmpeg(["-f", "lavfi", "-i", "color=s=16x16:r=1:d=10800", "-c:v", "libx264", "-preset", "ultrafast", path])
        }
    }

    /// H.264 with a mov_text subtitle and a timecode (data) stream beside it.
    static func withSubtitlesAndData() async throws -> String {
        try await cache.file("subtitles.mp4") { path in
            let subtitles = path + ".srt"
            try "1\n00:00:00,000 --> 00:00:01,000\nhello\n".write(toFile: subtitles, atomically: true, encoding: .utf8)
            try await ffmpeg(
                ["-f", "lavfi", "-i", "testsrc2=s=64x36:r=10:d=1", "-i", subtitles, "-map", "0", "-map", "1"]
                    + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:s", "mov_text", "-timecode", "00:00:00:00"]
                    + ["-f", "mp4", path])
        }
    }

    /// The first half of an MP4 whose index is at its end, so the index is gone.
    static func truncatedHalf() async throws -> String {
        try await cache.file("half.mp4") { path in
            let whole = try Data(contentsOf: URL(fileURLWithPath: try await portraitWithSound()))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        }
    }

    /// The first kilobyte of an MP4.
    static func firstKilobyte() async throws -> String {
        try await cache.file("1k.mp4") { path in
            let whole = try Data(contentsOf: URL(fileURLWithPath: try await portraitWithSound()))
            try whole.prefix(1024).write(to: URL(fileURLWithPath: path))
        }
    }

    /// A MOV whose one MJPEG frame declares 20000 × 20000 in both the sample description and the JPEG header,
    /// though it holds 16 × 16 pixels. ffmpeg cannot even make such a picture, so the header is rewritten.
    static func declares20000Square() async throws -> String {
        try await cache.file("20000.mov") { path in
            let small = path + ".small.mov"
            try await ffmpeg(["-f", "lavfi", "-i", "color=s=16x16:d=0.04", "-c:v", "mjpeg", "-f", "mov", small])
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: small)))
            let edge: [UInt8] = [0x4E, 0x20, 0x4E, 0x20]  // 20000, 20000 (big-endian)
            // VisualSampleEntry: the width and height follow the 4-byte type by 24 bytes.
            guard let entry = find(Array("jpeg".utf8), in: bytes), let frameHeader = find([0xFF, 0xC0], in: bytes) else {
                throw Failure(description: "no 'jpeg' sample entry or SOF0 marker in \(small)")
            }
            bytes.replaceSubrange((entry + 28)..<(entry + 32), with: edge)
            // SOF0: marker, length (2), precision (1), then height and width.
            bytes.replaceSubrange((frameHeader + 5)..<(frameHeader + 9), with: edge)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try FileManager.default.removeItem(atPath: small)
        }
    }

    // MARK: Reading what ffmpeg made

    /// ffprobe's JSON for `path`, as a dictionary.
    static func ffprobe(_ path: String) async throws -> [String: Any] {
        let outcome = await ChildProcess.run(
            ["/usr/bin/ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams", path], limits: generous,
            stdoutLimit: 1 << 24)
        guard outcome.ending == .exited(0), let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any] else {
            throw Failure(description: "ffprobe \(path): \(outcome.ending) \(outcome.stderrTail)")
        }
        return json
    }

    /// The mean and standard deviation of the first frame's luma (the Y plane, 8 bits), as ffmpeg decodes it.
    static func luma(_ path: String) async throws -> (mean: Double, deviation: Double) {
        let outcome = await ChildProcess.run(
            ["/usr/bin/ffmpeg", "-nostdin", "-v", "error", "-i", path, "-frames:v", "1", "-vf", "extractplanes=y", "-f", "rawvideo", "pipe:1"],
            limits: generous, stdoutLimit: 1 << 26)
        guard outcome.ending == .exited(0), !outcome.stdout.isEmpty else { throw Failure(description: "ffmpeg \(path): \(outcome.stderrTail)") }
        let values = outcome.stdout.map(Double.init)
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return (mean, variance.squareRoot())
    }

    /// The top-level MP4 box types in file order (`ftyp`, `moov`, `mdat`...).
    static func topLevelBoxes(_ path: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var boxes: [String] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            boxes.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
            if size == 1, offset + 16 <= bytes.count { size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) } }
            if size == 0 { break }
            guard size >= 8 else { break }
            offset += size
        }
        return boxes
    }

    // MARK: Making

    static let generous: ClipProcessor.ChildLimits = {
        var limits = ClipProcessor.ChildLimits()
        limits.memoryBytes = 16 << 30
        limits.cpuSeconds = 600
        limits.wallSeconds = 300
        limits.niceness = 0
        return limits
    }()

    static func ffmpeg(_ arguments: [String]) async throws {
        let outcome = await ChildProcess.run(
            ["/usr/bin/ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-y"] + arguments, limits: generous, stdoutLimit: 1 << 20)
        guard outcome.ending == .exited(0) else {
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")): \(outcome.ending)\n\(outcome.stderrTail)")
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static let cache = Cache()

    /// Each fixture's one making, shared by every test that asks for it.
    private actor Cache {
        private var making: [String: Task<String, any Error>] = [:]

        func file(_ name: String, _ make: @escaping @Sendable (String) async throws -> Void) async throws -> String {
            if let task = making[name] { return try await task.value }
            let path = ClipFixtures.directory + "/" + name
            let task = Task<String, any Error> {
                try await make(path)
                return path
            }
            making[name] = task
            return try await task.value
        }
    }
}

extension ClipProcessor.ChildLimits {
    /// The server's limits, but not niced: in a parallel test run a niced child waits behind every other test.
    static let unniced = ClipProcessor.ChildLimits().unniced

    var unniced: Self {
        var limits = self
        limits.niceness = 0
        return limits
    }
}
