/// FNV-1a, 64-bit: a fast non-cryptographic hash, good enough to fingerprint static files for cache busting
/// (collisions only matter between two versions of the same file).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        value = hash
    }

    mutating func combine(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { combine($0) }
    }

    /// Eight hex digits: both halves folded together so every input bit counts.
    var fingerprint: String {
        hex(UInt64(UInt32(truncatingIfNeeded: value ^ (value >> 32))), digits: 8)
    }

    /// All sixteen hex digits.
    var hexDigest: String {
        hex(value, digits: 16)
    }

    private func hex(_ number: UInt64, digits: Int) -> String {
        let text = String(number, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
