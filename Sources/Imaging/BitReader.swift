/// Reads a bitstream most significant bit first, as H.265 and AV1 write their headers. Every read is checked:
/// past the end it throws `End` instead of reading, so a truncated or hostile header only ends the parse.
struct BitReader {
    struct End: Error {}

    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next `count` bits (at most 32) as an unsigned number.
    mutating func read(_ count: Int) throws(End) -> Int {
        precondition((0...32).contains(count), "BitReader reads at most 32 bits at once")
        guard count <= bytes.count * 8 - position else { throw End() }
        var value = 0
        for _ in 0..<count {
            let bit = Int(bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
            value = value << 1 | bit
            position += 1
        }
        return value
    }

    mutating func flag() throws(End) -> Bool {
        try read(1) == 1
    }

    mutating func skip(_ count: Int) throws(End) {
        guard count >= 0, count <= bytes.count * 8 - position else { throw End() }
        position += count
    }

    /// ue(v), H.265 §9.2. More than 31 leading zeros is no 32-bit value; it is refused like the end of the data.
    mutating func unsignedExpGolomb() throws(End) -> Int {
        var zeros = 0
        while try read(1) == 0 {
            zeros += 1
            guard zeros < 32 else { throw End() }
        }
        return (1 << zeros) - 1 + (try read(zeros))
    }

    /// uvlc(), AV1 §4.10.3: 32 or more leading zeros stand for 2³² − 1 without further bits (the zeros still run
    /// to their terminating one, which the reader's end bounds).
    mutating func uvlc() throws(End) -> Int {
        var zeros = 0
        while try read(1) == 0 { zeros += 1 }
        guard zeros < 32 else { return (1 << 32) - 1 }
        return (1 << zeros) - 1 + (try read(zeros))
    }
}
