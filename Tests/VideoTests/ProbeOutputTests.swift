import Testing

@testable import Video

@Suite struct ProbeOutputTests {
    /// An iPhone-like HLG clip: container, duration, the HEVC stream's colour, the rotation and the place are read.
    @Test func readsAPhonesHDRClip() throws {
        let json = """
            {"streams": [
              {"index": 0, "codec_name": "hevc", "profile": "Main 10", "codec_type": "video", "width": 1920, "height": 1080,
               "pix_fmt": "yuv420p10le", "color_space": "bt2020nc", "color_transfer": "arib-std-b67", "color_primaries": "bt2020",
               "r_frame_rate": "30/1", "avg_frame_rate": "30000/1001", "duration": "20.000000",
               "disposition": {"default": 1, "attached_pic": 0},
               "tags": {"handler_name": "Core Media Video"},
               "side_data_list": [{"side_data_type": "Display Matrix", "displaymatrix": "\\n00000000: 0 65536 0\\n", "rotation": -90}]},
              {"index": 1, "codec_name": "aac", "profile": "LC", "codec_type": "audio", "channels": 2, "duration": "20.010000"}
            ],
            "format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", "duration": "20.010000", "size": "123",
              "tags": {"com.apple.quicktime.location.ISO6709": "+48.8584+002.2945+035.000/", "creation_time": "2024-05-01T10:00:00Z"}}}
            """
        let clip = try #require(ProbeOutput.parse(Array(json.utf8))?.clip)
        #expect(clip.container == "mov,mp4,m4a,3gp,3g2,mj2")
        #expect(clip.duration == 20.01)
        #expect(clip.audioCodec == "aac")
        let video = try #require(clip.video)
        #expect(video.codec == "hevc" && video.profile == "Main 10" && video.pixelFormat == "yuv420p10le")
        #expect(video.width == 1920 && video.height == 1080)
        #expect(video.rotation == 90)
        #expect(video.displayWidth == 1080 && video.displayHeight == 1920)
        #expect(abs(video.framesPerSecond - 29.97) < 0.01)
        #expect(video.isHDR && video.transfer == "arib-std-b67" && video.primaries == "bt2020" && video.matrix == "bt2020nc")
        #expect(clip.location?.latitude == 48.8584 && clip.location?.longitude == 2.2945)
    }

    /// ffprobe's display-matrix angle is counter-clockwise; the older `rotate` tag is clockwise.
    @Test func turnsRotationsClockwise() {
        func stream(matrix: Double? = nil, tag: String? = nil) -> ProbeOutput.Stream {
            var stream = ProbeOutput.Stream()
            if let matrix { stream.sideDataList = [.init(sideDataType: "Display Matrix", rotation: matrix)] }
            if let tag { stream.tags = ["rotate": tag] }
            return stream
        }
        #expect(ProbeOutput.rotation(of: stream(matrix: -90)) == 90)
        #expect(ProbeOutput.rotation(of: stream(matrix: 90)) == 270)
        #expect(ProbeOutput.rotation(of: stream(matrix: 180)) == 180)
        #expect(ProbeOutput.rotation(of: stream(matrix: -180)) == 180)
        #expect(ProbeOutput.rotation(of: stream(matrix: -89.9)) == 90)
        #expect(ProbeOutput.rotation(of: stream(tag: "90")) == 90)
        #expect(ProbeOutput.rotation(of: stream(tag: "-90")) == 270)
        #expect(ProbeOutput.rotation(of: stream()) == 0)
    }

    /// A cover picture is not the video; a silent WebM has no audio codec; the duration falls back to the streams.
    @Test func skipsCoverArtAndFallsBackToStreamDuration() throws {
        let json = """
            {"streams": [
              {"codec_name": "mjpeg", "codec_type": "video", "width": 600, "height": 600, "disposition": {"attached_pic": 1}},
              {"codec_name": "vp9", "codec_type": "video", "width": 320, "height": 180, "r_frame_rate": "30/1", "avg_frame_rate": "0/0",
               "duration": "2.000000"},
              {"codec_name": "vp9", "codec_type": "video", "width": 64, "height": 64, "duration": "2.500000"}
            ],
            "format": {"format_name": "matroska,webm", "tags": {"location": "+48.8584+002.2945/"}}}
            """
        let clip = try #require(ProbeOutput.parse(Array(json.utf8))?.clip)
        #expect(clip.video?.codec == "vp9")
        #expect(clip.video?.width == 320)
        #expect(clip.video?.framesPerSecond == 30)
        #expect(clip.audioCodec == nil)
        #expect(clip.duration == 2.5)
        #expect(clip.location?.longitude == 2.2945)
    }

    /// No duration anywhere, or a zero one, is an unreadable clip; text that is not ffprobe's JSON is refused.
    @Test func refusesWhatHasNoDuration() {
        #expect(ProbeOutput.parse(Array(#"{"streams": [{"codec_type": "video"}], "format": {"duration": "0.000000"}}"#.utf8))?.clip == nil)
        #expect(ProbeOutput.parse(Array(#"{"streams": [], "format": {}}"#.utf8))?.clip == nil)
        #expect(ProbeOutput.parse(Array("not json".utf8)) == nil)
        #expect(ProbeOutput.parse(Array(#"{"streams": [{"width": "wide"}]}"#.utf8)) == nil)
    }

    /// Frame rates are fractions; `0/0` and junk are unknown.
    @Test func readsFrameRates() {
        #expect(ProbeOutput.frameRate("30/1") == 30)
        #expect(ProbeOutput.frameRate("60000/1001").map { abs($0 - 59.94) < 0.01 } == true)
        #expect(ProbeOutput.frameRate("0/0") == nil)
        #expect(ProbeOutput.frameRate("1/0") == nil)
        #expect(ProbeOutput.frameRate("fast") == nil)
        #expect(ProbeOutput.frameRate(nil) == nil)
    }
}
