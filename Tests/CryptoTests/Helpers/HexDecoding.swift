extension Array where Element == UInt8 {
    /// Bytes from a test vector written in hex; traps on bad input, which is a broken test.
    init(hex: String) {
        let digits = Array(hex.utf8)
        self = stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
    }
}
