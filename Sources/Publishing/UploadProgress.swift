public import ATProto
import Synchronization

/// How far along each visitor's clip is, for the create form's script to show while its POST waits. Keyed by the
/// session and a token the form's script chose, so one visitor cannot read another's progress; held in memory only,
/// bounded in entries and in time.
public final class UploadProgress: Sendable {
    /// Where a clip is, in the words the form's script shows (the raw values are its JSON).
    public enum Phase: String, Encodable, Sendable {
        /// Uploaded; waiting for a processing slot.
        case waiting
        /// ffmpeg is at work on it; `fraction` says how far.
        case processing
        /// Processed; being posted.
        case done
    }

    /// One upload's latest news, as the progress route answers it.
    public struct Entry: Encodable, Equatable, Sendable {
        /// The step the clip is at, so the script can say which.
        public var phase: Phase
        /// 0...1 of the processing.
        public var fraction: Double
        /// When the news came: stale entries are forgotten. Not encoded, so the script learns nothing of the clock.
        public var updated: UTCTime

        /// The route makes one for a token it has no news of yet, which reads as waiting.
        public init(phase: Phase, fraction: Double, updated: UTCTime) {
            self.phase = phase
            self.fraction = fraction
            self.updated = updated
        }

        enum CodingKeys: String, CodingKey { case phase, fraction }
    }

    /// How many uploads are remembered at once, and for how long after their last news.
    static let capacity = 256
    static let lifetime: Double = 15 * 60

    private let entries = Mutex<[String: Entry]>([:])
    let clock: @Sendable () -> UTCTime

    /// - Parameter clock: the front's clock, which tests move to age entries past `lifetime` without waiting.
    public init(clock: @escaping @Sendable () -> UTCTime) {
        self.clock = clock
    }

    /// A token the form's script may choose: 16 to 64 URL-safe characters. The route checks it before it reads, so
    /// a malformed token is a 400 rather than a silent "waiting".
    public static func isToken(_ token: String) -> Bool {
        (16...64).contains(token.utf8.count)
            && token.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// Records the news of one upload; a malformed token is dropped, since nobody could ask for it.
    public func update(session: String, token: String, phase: Phase, fraction: Double) {
        guard Self.isToken(token) else { return }
        let now = clock()
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                entries = entries.filter { Self.isFresh($0.value, now: now) }
                if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.updated < $1.value.updated }) {
                    entries[oldest.key] = nil
                }
            }
            entries[session + ":" + token] = Entry(phase: phase, fraction: min(1, max(0, fraction)), updated: now)
        }
    }

    /// The news of one upload for the session that posted it; nil for a stale, unknown or malformed one.
    public func entry(session: String, token: String) -> Entry? {
        guard Self.isToken(token) else { return nil }
        let now = clock()
        return entries.withLock { $0[session + ":" + token] }.flatMap { Self.isFresh($0, now: now) ? $0 : nil }
    }

    /// Whether an entry's news is younger than `lifetime`.
    static func isFresh(_ entry: Entry, now: UTCTime) -> Bool { entry.updated.adding(seconds: lifetime) > now }

    /// Forgets an upload once its post has answered, so the memory is not held until the lifetime ends.
    public func remove(session: String, token: String) {
        entries.withLock { $0[session + ":" + token] = nil }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
