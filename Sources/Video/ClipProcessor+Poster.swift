extension ClipProcessor {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The first frame of an MP4 as PNG bytes, for the image pipeline to make posters of.
    public func posterFrame(_ path: String) async throws(VideoError) -> [UInt8] {
        _ = try regularFileSize(path)
        let argv = ChildArguments.poster(ffmpeg: ffmpeg, path: path, threads: threads)
        let png = try await gate.withSlot { () async throws(VideoError) in try await run(argv, stdoutLimit: ChildArguments.posterBytes) }
        guard png.starts(with: Self.pngSignature) else { throw Self.damaged }
        return png
    }
}
