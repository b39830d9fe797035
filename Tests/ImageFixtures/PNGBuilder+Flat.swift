extension PNGBuilder {
    /// A PNG of one colour at any size, small on disk: the first row is filtered Sub and the rest Up, so after
    /// four bytes the image data is zeros, which a fixed-Huffman deflate block codes as runs (RFC 1951 §3.2.6).
    /// An 8192×8192 picture is about 1.3 MB; with `zlibStored` it would be 200 MB.
    public static func flat(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) -> [UInt8] {
        var runs: [(byte: UInt8, count: Int)] = [(1, 1), (red, 1), (green, 1), (blue, 1), (0, 3 * (width - 1))]
        for _ in 1..<height {
            runs += [(2, 1), (0, 3 * width)]
        }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, ColorType.rgb.rawValue, 0, 0, 0])
        file += chunk("IDAT", zlibRuns(runs))
        file += chunk("IEND", [])
        return file
    }

    /// zlib data of `runs`, each byte once as a literal and then repeated by matches at distance 1.
    static func zlibRuns(_ runs: [(byte: UInt8, count: Int)]) -> [UInt8] {
        var bits = BitStream()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        var a = 1
        var b = 0
        for run in runs where run.count > 0 {
            bits.literal(Int(run.byte))
            var left = run.count - 1
            while left >= 258 {
                bits.code(0xC5, length: 8)  // length code 285: 258 bytes
                bits.code(0, length: 5)  // distance code 0: 1 byte back
                left -= 258
            }
            for _ in 0..<left { bits.literal(Int(run.byte)) }
            // Adler-32 over a run in closed form: each byte adds its value to a, and b gains every running a.
            let n = run.count
            b = (b + n % 65_521 * a + Int(run.byte) * (n * (n + 1) / 2 % 65_521)) % 65_521
            a = (a + n * Int(run.byte)) % 65_521
        }
        bits.code(0, length: 7)  // end of block
        return [0x78, 0x01] + bits.bytes() + bigEndian(b << 16 | a)
    }

    /// Deflate's bit order: fields from their least significant bit, Huffman codes from their most significant.
    struct BitStream {
        private var out: [UInt8] = []
        private var buffer = 0
        private var filled = 0

        mutating func write(_ value: Int, count: Int) {
            buffer |= value << filled
            filled += count
            while filled >= 8 {
                out.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                filled -= 8
            }
        }

        mutating func code(_ code: Int, length: Int) {
            var reversed = 0
            for bit in 0..<length { reversed |= (code >> bit & 1) << (length - 1 - bit) }
            write(reversed, count: length)
        }

        mutating func literal(_ value: Int) {
            if value < 144 { code(0x30 + value, length: 8) } else { code(0x190 + value - 144, length: 9) }
        }

        func bytes() -> [UInt8] {
            filled > 0 ? out + [UInt8(buffer & 0xFF)] : out
        }
    }
}
