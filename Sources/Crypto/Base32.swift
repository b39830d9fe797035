/// Lower-case RFC 4648 base32 without padding, the alphabet of CIDv1 strings ("b" multibase) and did:plc.
public enum Base32 {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
        }
        if bits > 0 {
            out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes lower- or upper-case base32 without padding; nil on any other character or a bad tail.
    public static func decode(_ string: String) -> [UInt8]? {
        var out = [UInt8]()
        var buffer: UInt32 = 0
        var bits = 0
        for char in string.utf8 {
            let value: UInt32
            switch char {
            case 0x61...0x7A: value = UInt32(char - 0x61)
            case 0x41...0x5A: value = UInt32(char - 0x41)
            case 0x32...0x37: value = UInt32(char - 0x32 + 26)
            default: return nil
            }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        // Leftover bits must be zero padding shorter than one symbol.
        if bits >= 5 || (buffer & ((1 << UInt32(bits)) - 1)) != 0 { return nil }
        return out
    }
}
