import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One child's state, shared by the reader threads, the waiting thread, the timer and cancellation.
final class ChildRun: Sendable {
    private struct State {
        var pid: Int32 = 0
        var exited = false
        var killedBecause: ChildOutcome.Ending?
        var cancelledBeforeStart = false
        /// Stdout's end, stderr's end and the child's exit: the caller resumes after all three.
        var pending = 3
        var ending: ChildOutcome.Ending = .exited(0)
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var partialLine: [UInt8] = []
        var continuation: CheckedContinuation<ChildOutcome, Never>?
    }

    private let state = Mutex(State())
    private let stdoutLimit: Int
    private let onLine: (@Sendable (Substring) -> Void)?

    init(stdoutLimit: Int, onLine: (@Sendable (Substring) -> Void)?) {
        self.stdoutLimit = stdoutLimit
        self.onLine = onLine
    }

    func start(_ commandLine: [String], wallSeconds: Double, continuation: CheckedContinuation<ChildOutcome, Never>) {
        let cancelled = state.withLock { state in
            state.continuation = continuation
            return state.cancelledBeforeStart
        }
        if cancelled {
            resumeAtOnce(.cancelled)
            return
        }
        let spawned: (pid: pid_t, stdout: Int32, stderr: Int32)
        switch Spawn.start(commandLine) {
        case .success(let child): spawned = child
        case .failure(let error):
            resumeAtOnce(.couldNotStart("\(commandLine[0]): \(error.description)"))
            return
        }
        state.withLock { state in
            state.pid = spawned.pid
            // Cancelled while starting: stop it now that there is a pid to stop.
            if state.cancelledBeforeStart {
                state.killedBecause = .cancelled
                Self.killGroup(state.pid)
            }
        }
        startReader(spawned.stdout, isStdout: true)
        startReader(spawned.stderr, isStdout: false)
        startWaiter(spawned.pid)
        // Weakly held, so a finished child's output is not kept until the timer would have fired.
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, wallSeconds)) { [weak self] in self?.stop(because: .timedOut) }
    }

    /// Waits for the child on a thread of its own. The exit is seen first without reaping (`WNOWAIT`), so while
    /// `exited` is false the pid is still the child's, a zombie at worst, and a SIGKILL can never reach a stranger
    /// that was given the same pid.
    private func startWaiter(_ pid: pid_t) {
        let thread = Thread { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            state.withLock { $0.exited = true }
            // Anything the child left behind in its group would hold the pipes open, and the readers with them.
            // The unreaped child keeps the group's id from being given to anyone else meanwhile.
            Self.killGroup(pid, leader: false)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            // The status word: the low 7 bits are the signal that ended the child, 0 if it exited.
            let signal = status & 0x7f
            let ending: ChildOutcome.Ending = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            finishOne { state in state.ending = state.killedBecause ?? ending }
        }
        thread.name = "video-child-wait"
        thread.start()
    }

    /// SIGKILL, unless the child has already exited (its pid may then belong to someone else).
    func stop(because reason: ChildOutcome.Ending) {
        state.withLock { state in
            guard state.pid != 0 else {
                if reason == .cancelled { state.cancelledBeforeStart = true }
                return
            }
            guard !state.exited, state.killedBecause == nil else { return }
            state.killedBecause = reason
            Self.killGroup(state.pid)
        }
    }

    /// SIGKILL to the child's process group (each child leads a new one), so a process it started dies with it;
    /// and to the child itself unless it has been reaped (its pid is then free).
    private static func killGroup(_ pid: Int32, leader: Bool = true) {
        // Never 0 or less: kill(0) and kill(-1) would reach this server's own group, or every process.
        guard pid > 0 else { return }
        _ = kill(-pid, SIGKILL)
        if leader { _ = kill(pid, SIGKILL) }
    }

    private func resumeAtOnce(_ ending: ChildOutcome.Ending) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: ChildOutcome(ending: ending, stdout: [], stderrTail: ""))
    }

    /// Counts one of the three ends down, resuming the caller after the last.
    private func finishOne(_ update: (inout State) -> Void) {
        let resume: (CheckedContinuation<ChildOutcome, Never>, ChildOutcome)? = state.withLock { state in
            update(&state)
            state.pending -= 1
            guard state.pending == 0, let continuation = state.continuation else { return nil }
            state.continuation = nil
            let tail = String(decoding: state.stderr, as: UTF8.self)
            return (continuation, ChildOutcome(ending: state.ending, stdout: state.stdout, stderrTail: tail))
        }
        if let (continuation, outcome) = resume { continuation.resume(returning: outcome) }
    }

    private func startReader(_ descriptor: Int32, isStdout: Bool) {
        let thread = Thread { [self] in
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let chunk = buffer[0..<count]
                if isStdout { received(chunk) } else { receivedError(chunk) }
            }
            if isStdout, let onLine {
                let rest = state.withLock { state in
                    defer { state.partialLine = [] }
                    return state.partialLine
                }
                if !rest.isEmpty { onLine(Substring(decoding: rest, as: UTF8.self)) }
            }
            finishOne { _ in }
        }
        thread.name = isStdout ? "video-child-stdout" : "video-child-stderr"
        thread.start()
    }

    private func received(_ chunk: ArraySlice<UInt8>) {
        guard let onLine else {
            let overflow = state.withLock { state in
                guard state.stdout.count + chunk.count <= stdoutLimit else { return true }
                state.stdout.append(contentsOf: chunk)
                return false
            }
            if overflow { stop(because: .outputTooLarge) }
            return
        }
        let lines: [[UInt8]] = state.withLock { state in
            state.partialLine.append(contentsOf: chunk)
            var lines: [[UInt8]] = []
            while let newline = state.partialLine.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(Array(state.partialLine[..<newline]))
                state.partialLine.removeSubrange(...newline)
            }
            // A line never ends: the child is not speaking the protocol, so keep memory bounded.
            if state.partialLine.count > stdoutLimit { state.partialLine.removeAll() }
            return lines
        }
        for line in lines { onLine(Substring(decoding: line, as: UTF8.self)) }
    }

    private func receivedError(_ chunk: ArraySlice<UInt8>) {
        state.withLock { state in
            state.stderr.append(contentsOf: chunk)
            if state.stderr.count > ChildProcess.stderrTailBytes {
                state.stderr.removeFirst(state.stderr.count - ChildProcess.stderrTailBytes)
            }
        }
    }
}
