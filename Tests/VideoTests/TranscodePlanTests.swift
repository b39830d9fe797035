import Testing

@testable import Video

@Suite struct TranscodePlanTests {
    static func plan(_ clip: ProbedClip, start: Double = 0, limits: VideoLimits = VideoLimits()) -> TranscodePlan {
        TranscodePlan(probed: clip, video: clip.video!, start: start, limits: limits)
    }

    static func arguments(_ clip: ProbedClip, start: Double = 0) -> [String] {
        ChildArguments.transcode(ffmpeg: "/usr/bin/ffmpeg", plan: plan(clip, start: start), input: "/in/-clip.mov", output: "/out/x.mp4", threads: 2)
    }

    /// Only HDR input (HLG or PQ) goes through zscale and tonemap, from the probed transfer, primaries and matrix.
    @Test func toneMapsOnlyHDR() {
        let sdr = Self.arguments(sampleClip()).joined(separator: " ")
        #expect(!sdr.contains("zscale") && !sdr.contains("tonemap"))
        #expect(sdr.contains("out_color_matrix=bt709"))
        let hlg = Self.plan(sampleClip(transfer: "arib-std-b67", primaries: "bt2020", matrix: "bt2020nc")).filters
        #expect(hlg.contains("zscale=w=1280:h=720:f=bicubic:tin=arib-std-b67:pin=bt2020:min=bt2020nc:t=linear:npl=100"))
        #expect(hlg.contains("tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p"))
        // Untagged primaries and matrix of a PQ clip are taken as BT.2020, which zimg can convert from.
        let pq = Self.plan(sampleClip(transfer: "smpte2084", primaries: "", matrix: "unknown")).filters
        #expect(pq.contains("tin=smpte2084:pin=bt2020:min=bt2020nc"))
    }

    /// A silent clip gets `-an`; one with sound gets stereo AAC-LC at 96 kb/s; subtitles and data are never mapped.
    @Test func soundOnlyWhenThereIsSound() {
        let silent = Self.arguments(sampleClip(audio: nil))
        #expect(silent.contains("-an") && !silent.contains("aac"))
        let sound = Self.arguments(sampleClip()).joined(separator: " ")
        #expect(sound.contains("-c:a aac -b:a 96000 -ac 2") && !sound.contains("-an"))
        #expect(sound.contains("-map 0:v:0 -map 0:a:0? -sn -dn -map_metadata -1 -map_chapters -1"))
    }

    /// The input is a `file:` URL behind a protocol and demuxer whitelist, seeked and bounded before `-i`.
    @Test func inputIsOnlyEverAFile() {
        let arguments = Self.arguments(sampleClip(), start: 3)
        let input = arguments.firstIndex(of: "-i")!
        #expect(arguments[input + 1] == "file:/in/-clip.mov")
        #expect(Array(arguments[(input - 4)..<input]) == ["-protocol_whitelist", "file", "-format_whitelist", "mov,matroska"])
        #expect(Array(arguments[(input - 8)..<(input - 4)]) == ["-ss", "3.000", "-t", "15.000"])
        #expect(arguments.last == "file:/out/x.mp4")
        #expect(arguments.first == "/usr/bin/ffmpeg" && arguments.contains("-nostdin"))
        let probe = ChildArguments.probe(ffprobe: "/usr/bin/ffprobe", path: "-x.mp4")
        #expect(probe.last == "file:-x.mp4" && probe.contains("-protocol_whitelist"))
    }

    /// H.264 High, yuv420p, tagged BT.709, no metadata or encoder strings, the index first, an MP4.
    @Test func encodesWhatStoriesNeed() {
        let line = Self.arguments(sampleClip()).joined(separator: " ")
        for part in [
            "-c:v libx264", "-profile:v high", "-pix_fmt yuv420p", "-color_primaries bt709 -color_trc bt709 -colorspace bt709",
            "-fflags +bitexact -flags:v +bitexact -flags:a +bitexact", "-movflags +faststart -f mp4", "-nostats -progress pipe:1",
            "filter_units=remove_types=6",
        ] {
            #expect(line.contains(part), "missing \(part)")
        }
    }

    /// The long edge fits 1280 without enlarging, after rotation, and both edges are even.
    @Test func sizesTheUprightPicture() {
        #expect(TranscodePlan.outputSize(width: 1920, height: 1080, longestEdge: 1280) == (1280, 720))
        let rotated = Self.plan(sampleClip(rotation: 90))
        #expect((rotated.width, rotated.height) == (720, 1280))
        #expect(TranscodePlan.outputSize(width: 640, height: 360, longestEdge: 1280) == (640, 360))
        #expect(TranscodePlan.outputSize(width: 333, height: 201, longestEdge: 1280) == (332, 200))
        #expect(TranscodePlan.outputSize(width: 3840, height: 1634, longestEdge: 1280) == (1280, 544))
        #expect(TranscodePlan.outputSize(width: 1, height: 1, longestEdge: 1280) == (2, 2))
    }

    /// The fps filter comes only when the input is faster than 30 frames a second (or its rate is unknown).
    @Test func capsTheFrameRate() {
        #expect(!Self.plan(sampleClip(fps: 30)).filters.contains("fps="))
        #expect(!Self.plan(sampleClip(fps: 29.97)).filters.contains("fps="))
        #expect(Self.plan(sampleClip(fps: 60)).filters.hasPrefix("fps=30,"))
        #expect(Self.plan(sampleClip(fps: 0)).filters.hasPrefix("fps=30,"))
    }

    /// The cut is at most 15 s, starts within the clip, and is never shorter than what is left.
    @Test func cutsWithinTheClip() {
        #expect(Self.plan(sampleClip(duration: 20), start: 10).seconds == 10)
        #expect(Self.plan(sampleClip(duration: 20), start: 2).seconds == 15)
        #expect(Self.plan(sampleClip(duration: 2)).seconds == 2)
        let late = Self.plan(sampleClip(duration: 20), start: 60)
        #expect(late.start == 19.5 && late.seconds == 0.5)
        #expect(Self.plan(sampleClip(), start: -3).start == 0)
        #expect(Self.plan(sampleClip(), start: .nan).start == 0)
    }

    /// 90% of 5 MB over 15 s, less the sound, is the video's bitrate; short clips are capped, not inflated.
    @Test func budgetsTheBitrate() {
        #expect(Self.plan(sampleClip()).videoBitrate == 2_400_000 - 96_000)
        #expect(Self.plan(sampleClip(audio: nil)).videoBitrate == 2_400_000)
        #expect(Self.plan(sampleClip(duration: 2)).videoBitrate == TranscodePlan.highestVideoBitrate)
        var small = VideoLimits()
        small.maxOutputBytes = 10_000
        #expect(Self.plan(sampleClip(), limits: small).videoBitrate == TranscodePlan.lowestVideoBitrate)
    }

    /// ffmpeg gets times to the millisecond.
    @Test func writesSeconds() {
        #expect(ChildArguments.seconds(0) == "0.000")
        #expect(ChildArguments.seconds(10.0625) == "10.063")
        #expect(ChildArguments.seconds(15) == "15.000")
    }
}
