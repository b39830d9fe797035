/// The structure of a JPEG as the tests read it back.
public enum JPEGMarkers {
    /// The markers of a JPEG's header segments, in order, up to and including SOS.
    public static func header(_ jpeg: [UInt8]) -> [UInt8] {
        var markers: [UInt8] = []
        var i = 2
        while i + 3 < jpeg.count && jpeg[i] == 0xFF {
            let marker = jpeg[i + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            i += 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3]))
        }
        return markers
    }
}
