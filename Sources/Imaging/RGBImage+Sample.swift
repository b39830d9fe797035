extension RGBImage {
    /// Every eighth 16-row stripe (a whole 4:2:0 MCU row, so no block mixes stripes), stacked, and the factor its
    /// encoded size is multiplied by to estimate the whole image's; nil for images too small to be worth it.
    func stripeSample() -> (image: RGBImage, scale: Double)? {
        let stripe = 16
        let every = 8
        guard width * height >= 1_000_000, height >= stripe * every * 4 else { return nil }
        let rowLength = width * 3
        var pixels: [UInt8] = []
        var rows = 0
        pixels.reserveCapacity((height / every + stripe) * rowLength)
        var top = 0
        while top + stripe <= height {
            pixels += self.pixels[(top * rowLength)..<((top + stripe) * rowLength)]
            rows += stripe
            top += stripe * every
        }
        return (RGBImage(width: width, height: rows, pixels: pixels), Double(height) / Double(rows))
    }
}
