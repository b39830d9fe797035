/// The picture size a coded stream's own header declares, which is what its decoder allocates, whatever the
/// container says.
struct CodedSize: Equatable {
    var width: Int
    var height: Int

    /// Codecs code whole blocks: a stream may be up to one 64-pixel block (an HEVC CTU, an AV1 superblock) larger
    /// than the picture it carries, and is cropped after decoding.
    static let blockSize = 64

    /// Whether a stream of this size may carry a picture declared `width × height`: each side at most the declared
    /// one rounded up to a whole block.
    func fits(width declaredWidth: Int, height declaredHeight: Int) -> Bool {
        width <= Self.roundedUp(declaredWidth) && height <= Self.roundedUp(declaredHeight)
    }

    /// Whether the smallest picture this stream could carry (a block less on each side) is within `limits`, so a
    /// picture just inside the limits, coded in whole blocks, still decodes.
    func mayCarry(within limits: PixelLimits) -> Bool {
        limits.allows(width: max(1, width - (Self.blockSize - 1)), height: max(1, height - (Self.blockSize - 1)))
    }

    private static func roundedUp(_ side: Int) -> Int {
        let (sum, overflow) = side.addingReportingOverflow(blockSize - 1)
        return overflow ? .max : sum / blockSize * blockSize
    }
}
