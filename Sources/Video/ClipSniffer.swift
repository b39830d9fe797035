/// Whether the start of a file looks like a clip a phone or a browser recorded: an ISO base media file (MP4, MOV,
/// 3GP) or a Matroska/WebM file. It only picks the path an upload takes; ffprobe decides what the file really is.
public enum ClipSniffer {
    /// ISO base media brands that are still images (HEIF, AVIF), which the image pipeline reads.
    static let imageBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis", "mif2"]
    /// Top-level boxes an old QuickTime file may start with, before any `ftyp`.
    static let quickTimeBoxes: Set<String> = ["moov", "mdat", "wide", "free", "skip", "pnot"]

    /// True for the first bytes (16 are enough) of an MP4, MOV, 3GP, WebM or Matroska file.
    public static func isClip(_ head: [UInt8]) -> Bool {
        if head.count >= 4, head[0] == 0x1A, head[1] == 0x45, head[2] == 0xDF, head[3] == 0xA3 { return true }
        guard head.count >= 12 else { return false }
        let box = String(decoding: head[4..<8], as: UTF8.self)
        if box == "ftyp" { return !imageBrands.contains(String(decoding: head[8..<12], as: UTF8.self)) }
        return quickTimeBoxes.contains(box)
    }
}
