/// Lower-case hexadecimal, for digests: session-id hashes, ETags, logs and tests.
public enum Hex {
    /// `[0xAB, 0x01]` as `ab01`. Written straight into the string's storage: every signed-in request hashes its
    /// session cookie and looks the hex up, and the array-then-string version showed in the profile.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let count = bytes.count
        return String(unsafeUninitializedCapacity: count * 2) { buffer in
            var index = 0
            for byte in bytes {
                buffer[index] = digit(byte >> 4)
                buffer[index + 1] = digit(byte & 0x0F)
                index += 2
            }
            return index
        }
    }

    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x57 + nibble
    }
}
