import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

extension ClipProcessor {
    /// Runs one child under ``child``'s limits; throws the sentence for its failure.
    func run(_ argv: [String], stdoutLimit: Int, onLine: (@Sendable (Substring) -> Void)? = nil) async throws(VideoError) -> [UInt8] {
        let outcome = await ChildProcess.run(argv, limits: child, stdoutLimit: stdoutLimit, onLine: onLine)
        guard let failure = failure(of: outcome) else { return outcome.stdout }
        logger.warning(
            "video child failed",
            fields: ["tool": URL(fileURLWithPath: argv.first ?? "").lastPathComponent, "ending": "\(outcome.ending)", "stderr": outcome.stderrTail])
        throw failure
    }

    /// The error for a child that did not succeed, nil when it did.
    func failure(of outcome: ChildOutcome) -> VideoError? {
        let resources =
            "\(Wording.memory(child.memoryBytes)) of memory and \(Wording.limit(Double(child.cpuSeconds))) of processor time"
        let tryLess = "try a shorter clip or one with a smaller picture."
        switch outcome.ending {
        case .exited(0):
            return nil
        case .timedOut:
            return VideoError(
                .overLimits, "Processing this clip took longer than the server allows (\(Wording.limit(child.wallSeconds))); \(tryLess)")
        case .cancelled:
            return VideoError(.busy, "Processing this clip was stopped before it finished; try again.")
        case .outputTooLarge:
            return VideoError(.overLimits, "This clip made more data than the server accepts; \(tryLess)")
        case .couldNotStart(let why):
            return VideoError(.damaged, "This clip could not be processed: the server could not start its video tools (\(why)).")
        case .signalled(SIGXCPU):
            return VideoError(.overLimits, "Processing this clip needed more processor time than the server allows (\(resources)); \(tryLess)")
        case .signalled:
            return VideoError(.overLimits, "Processing this clip needed more than the server allows (\(resources)); \(tryLess)")
        case .exited:
            let log = outcome.stderrTail
            // Under RLIMIT_AS a failed allocation is an error the tool reports and exits on, not a signal; with
            // very little, the dynamic loader cannot even map ffmpeg's libraries.
            let outOfMemory = ["Cannot allocate memory", "Out of memory", "malloc of size", "bad_alloc", "failed to map segment"]
            if outOfMemory.contains(where: log.contains) {
                return VideoError(
                    .overLimits, "Processing this clip needed more memory than the server allows (\(Wording.memory(child.memoryBytes))); \(tryLess)")
            }
            // ffmpeg catches SIGXCPU (the CPU soft limit), stops writing ("Immediate exit requested") and exits
            // with 255, its status for a signal it caught; nothing else here sends it one.
            if case .exited(255) = outcome.ending {
                return VideoError(.overLimits, "Processing this clip needed more processor time than the server allows (\(resources)); \(tryLess)")
            }
            return Self.damaged
        }
    }

    static let damaged = VideoError(
        .damaged, "This clip could not be read: the file seems damaged or incomplete, or is not an MP4, MOV or WebM video. Try sending it again.")

    /// The size of the regular file at `path`; anything else (missing, a directory, a pipe) is refused unread.
    func regularFileSize(_ path: String) throws(VideoError) -> Int {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw Self.damaged }
        return Int(info.st_size)
    }

    /// ffprobe's view of `path`; the caller holds a slot.
    func probeOutput(_ path: String) async throws(VideoError) -> ProbeOutput {
        let json = try await run(ChildArguments.probe(ffprobe: ffprobe, path: path), stdoutLimit: ChildArguments.probeBytes)
        guard let output = ProbeOutput.parse(json) else { throw Self.damaged }
        return output
    }
}
