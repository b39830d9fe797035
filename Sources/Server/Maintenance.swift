import ATProto
import App
import AuthServer
import Backend
import Foundation
import Logging
import Synchronization

/// Housekeeping beside serving, never inside a request: expired sign-ins, tokens, sessions and seen marks every
/// minute, members whose removal is due, and the nightly backup when one is due; unreferenced uploads and
/// ownerless blob files every ten.
final class Maintenance: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    static let interval: Duration = .seconds(60)
    /// Garbage collection of blobs runs every this many intervals.
    static let blobEvery = 10

    func start(_ application: Application) {
        let loop = Task { [weak application] in
            var round = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.interval)
                guard let application, !Task.isCancelled else { return }
                round += 1
                await Self.run(application, blobs: round % Self.blobEvery == 0)
                if let nightly = application.nightly { _ = await nightly.runIfDue(now: application.clock().date) }
            }
        }
        task.withLock { $0 = loop }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }

    /// One pass; also what tests call instead of waiting for the timer.
    static func run(_ application: Application, blobs: Bool) async {
        do { _ = try application.authServer?.pruneExpired() } catch { log.error("pruning the sign-in database failed: \(error)") }
        do { try application.front.prune(now: application.clock()) } catch { log.error("pruning the front's database failed: \(error)") }
        do { _ = try await application.removeDueMembers() } catch { log.error("removing members whose removal is due failed: \(error)") }
        guard blobs, let backend = application.backend else { return }
        do { _ = try await backend.collectGarbage() } catch { log.error("collecting unused blobs failed: \(error)") }
    }
}
