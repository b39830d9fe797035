public import ATProto
public import Clocks
import HatkClient
import Lexicon
import Logging
import Synchronization

/// Seen marks for an upstream that keeps Grain's viewed state (`markStoriesViewed`): each account's marks wait here
/// and go up in batches of at most 100 URIs, 30 seconds after the first one waiting, at once when 100 are waiting or
/// the person's page hides, and when the server stops. Until the upstream has them, the marks also count in the
/// account's ``SeenState``, so the strip is right at once.
public final class UpstreamSeenMarks: Sendable {
    /// Sends one account's batch (at most ``MarkStoriesViewed/maxStories`` URIs) as that account.
    public typealias Send = @Sendable (_ uris: [ATURI], _ session: BrowserSession) async throws -> Void

    private struct Account {
        var session: BrowserSession
        var pending: [ATURI] = []
        var state = SeenState()
        var scheduled = false
        /// Grows with every new mark: cached pages of this account are keyed by it.
        var version = 0
    }

    let delay: Duration
    let clock: MonotonicClock
    let send: Send
    private let accounts = Mutex<[String: Account]>([:])
    /// Marks one account may have waiting; older ones are dropped past it (a misbehaving script cannot grow memory).
    static let maxPending = 500
    /// Accounts kept at most, before those whose marks have all gone up are forgotten.
    let cachedAccounts: Int

    /// - Parameters:
    ///   - delay: how long the first waiting mark waits for others (Grain's own client waits 30 seconds), so a
    ///     person flicking through stories costs one call, not one a story.
    ///   - send: how a batch goes up: in process to the embedded backend, or `markStoriesViewed` with the person's
    ///     credentials to a remote one.
    ///   - cachedAccounts: past this many accounts, those with nothing waiting are forgotten (the upstream has their
    ///     marks now); accounts with marks still waiting are kept, so none is lost, and they drain within `delay`.
    ///   - clock: what the delay is waited out on.
    public init(
        delay: Duration = .seconds(30), cachedAccounts: Int = 4096, clock: MonotonicClock = .continuous,
        send: @escaping Send
    ) {
        self.delay = delay
        self.clock = clock
        self.cachedAccounts = cachedAccounts
        self.send = send
    }

    /// The marks of `account` this process made (sent or not): they join the upstream's own viewed state.
    public func state(for account: String) -> SeenState {
        accounts.withLock { $0[account]?.state } ?? SeenState()
    }

    /// Changes whenever `account` marks a story it had not marked.
    public func version(for account: String) -> Int {
        accounts.withLock { $0[account]?.version } ?? 0
    }

    /// Records a story as seen by the session's account; the upstream hears of it with the account's next batch.
    public func mark(uri: ATURI, createdAt: UTCTime, session: BrowserSession) {
        let (full, schedule) = accounts.withLock { accounts -> (Bool, Bool) in
            if accounts[session.did] == nil, accounts.count >= cachedAccounts {
                accounts = accounts.filter { !$0.value.pending.isEmpty }
            }
            var account = accounts[session.did] ?? Account(session: session)
            account.session = session
            guard !account.state.uris.contains(uri.description) else { return (false, false) }
            account.state.insert(uri: uri.description, author: uri.authority, createdAt: createdAt)
            account.version += 1
            account.pending.append(uri)
            if account.pending.count > Self.maxPending { account.pending.removeFirst(account.pending.count - Self.maxPending) }
            let schedule = !account.scheduled
            account.scheduled = true
            accounts[session.did] = account
            return (account.pending.count >= MarkStoriesViewed.maxStories, schedule)
        }
        if full {
            Task { await self.flush(session.did) }
        } else if schedule {
            flushLater(session.did)
        }
    }

    /// Sends the account's batch after ``delay``.
    private func flushLater(_ account: String) {
        Task {
            try? await self.clock.sleep(self.delay)
            await self.flush(account)
        }
    }

    /// Sends everything `account` has waiting, in batches of at most 100.
    public func flush(_ account: String) async {
        guard
            let (session, batch) = accounts.withLock({ accounts -> (BrowserSession, [ATURI])? in
                guard var entry = accounts[account], !entry.pending.isEmpty else {
                    accounts[account]?.scheduled = false
                    return nil
                }
                let batch = entry.pending
                entry.pending = []
                entry.scheduled = false
                accounts[account] = entry
                return (entry.session, batch)
            })
        else { return }
        var start = 0
        while start < batch.count {
            let chunk = Array(batch[start..<min(start + MarkStoriesViewed.maxStories, batch.count)])
            do {
                try await send(chunk, session)
            } catch let error as HatkError where error.isTransient {
                // Kept for the next batch; the marks still count here meanwhile.
                log.warning("seen marks not sent yet: \(error)")
                requeue(Array(batch[start...]), account: account, session: session)
                return
            } catch {
                // Signed out, or refused: these marks stay this process's only.
                log.warning("seen marks dropped: \(error)")
                return
            }
            start += MarkStoriesViewed.maxStories
        }
    }

    /// Puts a batch the upstream could not take back in front of the account's waiting marks, and sends them again
    /// after ``delay``: the person may mark nothing more (they watched, closed and left), so nothing else would.
    /// The account may have been forgotten while its batch was on its way (it had nothing else waiting): it comes back.
    private func requeue(_ uris: [ATURI], account: String, session: BrowserSession) {
        let schedule = accounts.withLock { accounts -> Bool in
            var entry = accounts[account] ?? Account(session: session)
            entry.pending = Array((uris + entry.pending).suffix(Self.maxPending))
            let schedule = !entry.scheduled
            entry.scheduled = true
            accounts[account] = entry
            return schedule
        }
        if schedule { flushLater(account) }
    }

    /// Sends what every account has waiting (when the server stops).
    public func flushAll() async {
        let names = accounts.withLock { Array($0.keys) }
        for name in names { await flush(name) }
    }

    /// Forgets marks of stories made before `cutoff` (they expired long ago) and accounts left without any.
    public func prune(before cutoff: UTCTime) {
        accounts.withLock { accounts in
            for (name, var entry) in accounts {
                entry.state.newestSeen = entry.state.newestSeen.filter { !($0.value < cutoff) }
                if entry.state.newestSeen.isEmpty && entry.pending.isEmpty {
                    accounts[name] = nil
                } else {
                    accounts[name] = entry
                }
            }
        }
    }
}
