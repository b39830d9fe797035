import Foundation
import Synchronization
import Testing

@testable import Video

@Suite struct ChildProcessTests {
    /// Children run under prlimit (address space, CPU soft and hard, no core) and nice.
    @Test func childrenRunUnderLimits() {
        var limits = ClipProcessor.ChildLimits()
        limits.memoryBytes = 1 << 30
        limits.cpuSeconds = 60
        limits.niceness = 10
        #expect(
            ChildProcess.commandLine(["/usr/bin/ffprobe", "-v"], limits: limits) == [
                "/usr/bin/prlimit", "--as=1073741824", "--cpu=60:70", "--core=0", "--", "/usr/bin/nice", "-n", "10", "/usr/bin/ffprobe", "-v",
            ])
    }

    static let limits: ClipProcessor.ChildLimits = {
        var limits = ClipProcessor.ChildLimits()
        limits.wallSeconds = 10
        return limits
    }()

    static func shell(_ script: String, limits: ClipProcessor.ChildLimits = limits, stdoutLimit: Int = 1 << 20) async -> ChildOutcome {
        await ChildProcess.run(["/bin/sh", "-c", script], limits: limits, stdoutLimit: stdoutLimit)
    }

    /// Both pipes are drained together, so a child writing a megabyte to stderr does not block; the log keeps its end.
    @Test func drainsBothPipes() async {
        let outcome = await Self.shell("head -c 1000000 /dev/zero | tr '\\0' e >&2; echo -n end >&2; echo out")
        #expect(outcome.ending == .exited(0))
        #expect(outcome.stdout == Array("out\n".utf8))
        #expect(outcome.stderrTail.count == ChildProcess.stderrTailBytes && outcome.stderrTail.hasSuffix("eend"))
    }

    /// A child printing more than the caller takes is killed.
    @Test func killsAChildThatPrintsTooMuch() async {
        let outcome = await Self.shell("cat /dev/zero", stdoutLimit: 1 << 16)
        #expect(outcome.ending == .outputTooLarge)
    }

    /// A child past its wall clock is killed and reaped: the answer comes long before the child would have ended
    /// (the margin is wide, so a busy machine cannot fail it; how fast is a benchmark's question).
    @Test func killsAChildPastItsWallClock() async {
        var limits = Self.limits
        limits.wallSeconds = 0.2
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = await Self.shell("sleep 300", limits: limits)
        #expect(outcome.ending == .timedOut)
        #expect(clock.now - started < .seconds(60))
    }

    /// A signal that ends a child is reported as such; an exit status as itself.
    @Test func reportsSignalsAndStatuses() async {
        #expect(await Self.shell("kill -KILL $$").ending == .signalled(9))
        #expect(await Self.shell("exit 3").ending == .exited(3))
    }

    /// A child starts with no signal blocked or ignored, and with no descriptor of this process past stderr.
    @Test func startsClean() async {
        #expect(Spawn.closesDescriptors)
        let status = await Self.shell("grep -E '^Sig(Blk|Ign)' /proc/self/status; ls /proc/self/fd")
        let lines = String(decoding: status.stdout, as: UTF8.self).split(separator: "\n")
        // The masks in hex; only the 31 standard signals count (glibc keeps 32 and 33 for itself).
        let masks = lines.prefix(2).map { UInt64($0.split(separator: "\t").last ?? "", radix: 16) ?? .max }
        #expect(masks.count == 2 && masks.allSatisfy { $0 & 0x7fff_ffff == 0 }, "\(lines.prefix(2))")
        // 0, 1, 2, and the one ls opened to list the directory.
        #expect(lines.dropFirst(2).count == 4, "descriptors \(lines.dropFirst(2))")
    }

    /// A child past its CPU time gets SIGXCPU from the kernel.
    @Test func cpuLimitStopsABusyChild() async {
        var limits = Self.limits
        limits.cpuSeconds = 1
        // Not niced, so the second comes within the wall clock on a busy machine.
        limits.niceness = 0
        limits.wallSeconds = 60
        #expect(await Self.shell("while :; do :; done", limits: limits).ending == .signalled(SIGXCPU))
    }

    /// Each way a child can fail becomes the kind and sentence a person reads.
    @Test func failuresBecomeSentences() {
        func failure(_ ending: ChildOutcome.Ending, _ log: String = "") -> VideoError? {
            ClipProcessor().failure(of: ChildOutcome(ending: ending, stdout: [], stderrTail: log))
        }
        #expect(failure(.exited(0)) == nil)
        #expect(failure(.timedOut)?.kind == .overLimits)
        #expect(failure(.timedOut)?.description.contains("took longer than the server allows (3 minutes)") == true)
        #expect(failure(.signalled(SIGXCPU))?.description.contains("more processor time than the server allows") == true)
        #expect(failure(.signalled(SIGKILL))?.kind == .overLimits)
        #expect(failure(.exited(1), "x264 [error]: malloc of size 3418304 failed")?.description.contains("more memory") == true)
        #expect(failure(.exited(1), "Error while filtering: Cannot allocate memory")?.kind == .overLimits)
        #expect(failure(.exited(255), "Error writing trailer: Immediate exit requested")?.description.contains("processor time") == true)
        #expect(failure(.exited(1), "moov atom not found")?.kind == .damaged)
        #expect(failure(.cancelled)?.kind == .busy)
        #expect(failure(.outputTooLarge)?.kind == .overLimits)
    }

    /// Cancelling the waiting task kills the child.
    @Test func cancellingKillsTheChild() async {
        let clock = ContinuousClock()
        let started = clock.now
        let task = Task { await Self.shell("sleep 300") }
        try? await Task.sleep(for: .milliseconds(200))
        task.cancel()
        #expect(await task.value.ending == .cancelled)
        #expect(clock.now - started < .seconds(60), "the child was killed, not waited for")
    }

    /// Lines reach the callback whole, however the pipe splits them, and the last one without a newline too.
    @Test func handsOverLines() async {
        let lines = Lines()
        let outcome = await ChildProcess.run(
            ["/bin/sh", "-c", "printf 'a=1\\nb='; sleep 0.1; printf '2\\nc=3'"], limits: Self.limits, stdoutLimit: 1 << 10,
            onLine: { lines.add(String($0)) })
        #expect(outcome.ending == .exited(0))
        #expect(lines.values == ["a=1", "b=2", "c=3"])
    }
}

/// Lines a callback saw, from whatever thread.
final class Lines: Sendable {
    private let storage = Mutex<[String]>([])
    func add(_ line: String) { storage.withLock { $0.append(line) } }
    var values: [String] { storage.withLock { $0 } }
}
