#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a reload check compares: a file's modification time and size, from one `stat` call.
struct FileStamp: Equatable, Sendable {
    let seconds: Int
    let nanoseconds: Int
    let size: Int64

    /// The stamp of `path`, or nil when it cannot be read (deleted, for instance).
    static func read(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return FileStamp(seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec), size: Int64(info.st_size))
    }
}
