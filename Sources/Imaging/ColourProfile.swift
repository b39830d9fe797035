/// How an image's samples are to be read, when they are not plain sRGB.
enum ColourProfile: Equatable {
    /// An embedded ICC profile (JPEG APP2, PNG iCCP, WebP ICCP, HEIF `prof`/`rICC`).
    case icc([UInt8])
    /// HEIF's `nclx` colour description: ITU-T H.273 colour primaries and transfer characteristics.
    case nclx(primaries: Int, transfer: Int)

    /// Larger embedded profiles than any display profile (a few KB) or even big print profiles are ignored.
    static let maxICCBytes = 4 << 20
}
