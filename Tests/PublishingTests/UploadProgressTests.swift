import ATProto
import TestSupport
import Testing

@testable import Publishing

/// How far a clip is processed, as the create form's script reads it while its post waits.
@Suite struct UploadProgressTests {
    static let token = "abcdefghijklmnopqrstuvwx"

    @Test("a visitor reads their own upload's progress under their token; another session, or another token, reads nothing")
    func progressIsTheVisitorsOwn() {
        let progress = UploadProgress(clock: { .fixture })
        progress.update(session: "maya", token: Self.token, phase: .processing, fraction: 0.42)
        let entry = progress.entry(session: "maya", token: Self.token)
        #expect(entry?.phase == .processing && entry?.fraction == 0.42)
        #expect(progress.entry(session: "jonas", token: Self.token) == nil)
        #expect(progress.entry(session: "maya", token: "zyxwvutsrqponmlkjihgfedc") == nil)
        progress.remove(session: "maya", token: Self.token)
        #expect(progress.entry(session: "maya", token: Self.token) == nil)
    }

    @Test("tokens are 16 to 64 URL-safe characters; fractions are kept within 0 and 1; news older than the lifetime is gone")
    func boundsAndLifetime() {
        let now = TestClock(.fixture)
        let progress = UploadProgress(clock: { now.now })
        #expect(!UploadProgress.isToken("short"))
        #expect(!UploadProgress.isToken(String(repeating: "a", count: 65)))
        #expect(!UploadProgress.isToken("abcdefghijklmnop/../x"))
        progress.update(session: "maya", token: "bad/token/with/slashes", phase: .processing, fraction: 0.5)
        #expect(progress.entry(session: "maya", token: "bad/token/with/slashes") == nil)
        progress.update(session: "maya", token: Self.token, phase: .processing, fraction: 7)
        #expect(progress.entry(session: "maya", token: Self.token)?.fraction == 1)
        now.advance(seconds: UploadProgress.lifetime + 1)
        #expect(progress.entry(session: "maya", token: Self.token) == nil)
    }

    @Test("at most `capacity` uploads are remembered: the oldest news makes room")
    func bounded() {
        let now = TestClock(.fixture)
        let progress = UploadProgress(clock: { now.now })
        for n in 0..<(UploadProgress.capacity + 10) {
            now.advance(seconds: 1)
            progress.update(session: "s\(n)", token: Self.token, phase: .waiting, fraction: 0)
        }
        #expect(progress.entry(session: "s0", token: Self.token) == nil)
        #expect(progress.entry(session: "s\(UploadProgress.capacity + 9)", token: Self.token) != nil)
    }
}
