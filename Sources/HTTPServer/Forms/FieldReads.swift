import Synchronization

/// The names of the form fields and query parameters read while it is bound: the test that checks every rendered
/// form against its handler binds one around a submission, so a field that exists only in a handler (the first-run
/// form once read a setup code it never asked for) fails that test. Unbound, reading a field costs one task-local
/// lookup.
public final class FieldReads: Sendable {
    public enum Source: Sendable, Hashable {
        /// A field of a submitted body (URL-encoded or multipart).
        case body
        /// A parameter of the query string.
        case query
    }

    private let names = Mutex<[Source: Set<String>]>([:])

    /// The reads of the handler running in this task, if a test is watching.
    @TaskLocal public static var current: FieldReads?

    public init() {}

    static func note(_ name: String, from source: Source) {
        current?.names.withLock { _ = $0[source, default: []].insert(name) }
    }

    /// Every name read from `source` so far.
    public func read(from source: Source) -> Set<String> {
        names.withLock { $0[source] ?? [] }
    }
}
