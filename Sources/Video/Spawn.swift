#if canImport(Glibc)
    import Glibc
#endif

/// `posix_spawn` of a child set up the way a bounded ffmpeg needs, which Foundation's `Process` does not do: it
/// starts the child with the spawning thread's signal mask, and threads of Swift's runtime block nearly every
/// signal, so a child never saw the SIGXCPU of its CPU limit.
enum Spawn {
    struct Failure: Error {
        let description: String
    }

    /// Nothing of the server's environment reaches the child: no proxy settings, no locale surprises. Two malloc
    /// arenas instead of one per thread: each reserves 64 MB of address space, which RLIMIT_AS counts (a 4K
    /// transcode with 8 threads peaks at 1.3 GB of address space so, 2.2 GB without).
    static let environment = ["PATH=/usr/bin:/bin", "LC_ALL=C", "MALLOC_ARENA_MAX=2"]

    /// Starts `commandLine` (an absolute path first) as the leader of a new process group, every signal unblocked
    /// and at its default, standard input from /dev/null, standard output and error to pipes whose read ends are
    /// returned, and no other descriptor of this process.
    static func start(_ commandLine: [String]) -> Result<(pid: pid_t, stdout: Int32, stderr: Int32), Failure> {
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard makePipe(&output) else { return .failure(Failure(description: "pipe: \(String(cString: strerror(errno)))")) }
        guard makePipe(&errors) else {
            let reason = String(cString: strerror(errno))
            close(output[0])
            close(output[1])
            return .failure(Failure(description: "pipe: \(reason)"))
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // The server's own descriptors (its sockets, its databases) stay out of reach of a child that a hostile
        // file may have taken over.
        _ = addCloseFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // A group of its own, so a SIGKILL to the group reaches anything the child starts.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = commandLine.map { strdup($0) } + [nil]
        let environment = Self.environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + environment { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, commandLine[0], &actions, &attributes, argv, environment)
        close(output[1])
        close(errors[1])
        guard status == 0 else {
            close(output[0])
            close(errors[0])
            return .failure(Failure(description: String(cString: strerror(status))))
        }
        return .success((pid, output[0], errors[0]))
    }

    // Two GNU functions of glibc (2.34 and later for the second) that Swift's Glibc module does not import.
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private static let pipe2: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    /// Whether children are started with none of this process's descriptors past standard error.
    static var closesDescriptors: Bool { addCloseFrom != nil }

    /// A pipe whose ends close on exec, so a child another thread spawns meanwhile does not inherit them and keep
    /// them open; atomically where glibc has `pipe2`.
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        if let pipe2 { return pipe2(&ends, O_CLOEXEC) == 0 }
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }
}
