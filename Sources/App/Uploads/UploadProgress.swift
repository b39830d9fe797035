import Foundation
import Synchronization

/// How far along each visitor's clip is, for the create form's script to show while its POST waits. Keyed by the
/// session and a token the form's script chose, so one visitor cannot read another's progress; held in memory only,
/// bounded in entries and in time.
final class UploadProgress: Sendable {
    enum Phase: String, Encodable, Sendable {
        /// Uploaded; waiting for a processing slot.
        case waiting
        case processing
        /// Processed; being posted.
        case done
    }

    struct Entry: Encodable, Equatable, Sendable {
        var phase: Phase
        /// 0...1 of the processing.
        var fraction: Double
        var updated: Date

        enum CodingKeys: String, CodingKey { case phase, fraction }
    }

    /// How many uploads are remembered at once, and for how long after their last news.
    static let capacity = 256
    static let lifetime: TimeInterval = 15 * 60

    private let entries = Mutex<[String: Entry]>([:])
    let clock: @Sendable () -> Date

    init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    /// A token the form's script may choose: 16 to 64 URL-safe characters.
    static func isToken(_ token: String) -> Bool {
        (16...64).contains(token.utf8.count)
            && token.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    func update(session: String, token: String, phase: Phase, fraction: Double) {
        guard Self.isToken(token) else { return }
        let now = clock()
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                entries = entries.filter { now.timeIntervalSince($0.value.updated) < Self.lifetime }
                if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.updated < $1.value.updated }) {
                    entries[oldest.key] = nil
                }
            }
            entries[session + ":" + token] = Entry(phase: phase, fraction: min(1, max(0, fraction)), updated: now)
        }
    }

    func entry(session: String, token: String) -> Entry? {
        guard Self.isToken(token) else { return nil }
        let now = clock()
        return entries.withLock { $0[session + ":" + token] }.flatMap { now.timeIntervalSince($0.updated) < Self.lifetime ? $0 : nil }
    }

    func remove(session: String, token: String) {
        entries.withLock { $0[session + ":" + token] = nil }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
