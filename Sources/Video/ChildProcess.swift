/// How a child ended, and what it printed.
struct ChildOutcome: Sendable {
    enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Killed by us: past its wall-clock limit.
        case timedOut
        /// Killed by us: the task that waited for it was cancelled.
        case cancelled
        /// Killed by us: it printed more than the caller accepts.
        case outputTooLarge
        case couldNotStart(String)
    }

    var ending: Ending
    /// Standard output, unless it was handed line by line to a callback.
    var stdout: [UInt8]
    /// The end of standard error, for the log.
    var stderrTail: String
}

/// ffmpeg and ffprobe as child processes under `prlimit` (address space, CPU time, no core file) and `nice`, with
/// a wall-clock limit, both pipes drained and the child reaped on threads of their own (so neither pipe fills and
/// blocks the child, and no thread of Swift's cooperative pool ever waits), the caller resuming after all three.
enum ChildProcess {
    static let prlimit = "/usr/bin/prlimit"
    static let nice = "/usr/bin/nice"
    static let stderrTailBytes = 4096
    /// Seconds between the CPU soft limit (SIGXCPU, which ffmpeg answers by stopping) and the hard one (SIGKILL).
    static let cpuGraceSeconds = 10

    /// The command line that runs `argv` under `limits`.
    static func commandLine(_ argv: [String], limits: ClipProcessor.ChildLimits) -> [String] {
        [
            prlimit, "--as=\(limits.memoryBytes)", "--cpu=\(limits.cpuSeconds):\(limits.cpuSeconds + cpuGraceSeconds)", "--core=0", "--",
            nice, "-n", "\(limits.niceness)",
        ] + argv
    }

    /// Runs `argv` and returns once it has ended and both pipes are drained.
    ///
    /// - Parameters:
    ///   - stdoutLimit: bytes of standard output kept; a child that prints more is killed.
    ///   - onLine: when given, standard output is handed to it line by line (on a reader thread) instead of kept.
    static func run(
        _ argv: [String], limits: ClipProcessor.ChildLimits, stdoutLimit: Int, onLine: (@Sendable (Substring) -> Void)? = nil
    ) async -> ChildOutcome {
        let run = ChildRun(stdoutLimit: stdoutLimit, onLine: onLine)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                run.start(commandLine(argv, limits: limits), wallSeconds: limits.wallSeconds, continuation: continuation)
            }
        } onCancel: {
            run.stop(because: .cancelled)
        }
    }
}
