import Synchronization

/// A timestamp identifier: 53 bits of microseconds since the epoch and 10 bits of clock id, written as
/// 13 characters of sortable base32, so record keys sort by creation time.
public struct TID: Hashable, Sendable, Comparable, CustomStringConvertible {
    static let alphabet = Array("234567abcdefghijklmnopqrstuvwxyz".utf8)
    public let value: UInt64

    public init(microseconds: UInt64, clockID: UInt64) {
        value = ((microseconds & ((1 << 53) - 1)) << 10) | (clockID & 0x3FF)
    }

    public init(_ string: String) throws(SyntaxError) {
        let bytes = Array(string.utf8)
        guard bytes.count == 13 else { throw SyntaxError(kind: "TID", input: string) }
        var v: UInt64 = 0
        for (i, b) in bytes.enumerated() {
            guard let digit = TID.alphabet.firstIndex(of: b) else { throw SyntaxError(kind: "TID", input: string) }
            // The first character carries the always-zero top bit.
            if i == 0 && digit >= 16 { throw SyntaxError(kind: "TID", input: string) }
            v = (v << 5) | UInt64(digit)
        }
        value = v
    }

    public var microseconds: UInt64 { value >> 10 }

    public var description: String {
        var chars = [UInt8](repeating: 0, count: 13)
        var v = value
        for i in stride(from: 12, through: 0, by: -1) {
            chars[i] = TID.alphabet[Int(v & 31)]
            v >>= 5
        }
        return String(decoding: chars, as: UTF8.self)
    }

    public static func < (a: TID, b: TID) -> Bool { a.value < b.value }
}

/// Issues strictly increasing TIDs even when the wall clock stalls or steps back.
public final class TIDClock: Sendable {
    private let last = Mutex<UInt64>(0)
    private let clockID: UInt64

    public init(clockID: UInt64 = UInt64.random(in: 0..<1024)) {
        self.clockID = clockID
    }

    public func next(now: UTCTime = .now) -> TID {
        let micros = last.withLock { last -> UInt64 in
            let candidate = max(UInt64(max(0, now.microseconds)), last + 1)
            last = candidate
            return candidate
        }
        return TID(microseconds: micros, clockID: clockID)
    }
}
