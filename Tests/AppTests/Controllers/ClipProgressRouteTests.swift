import ATProto
import HTTPServer
import Testing

@testable import App

/// `GET /create/progress`: what the create form's script reads while a clip's post waits (the bookkeeping itself is
/// Publishing's `UploadProgress`, tested in PublishingTests).
@Suite struct ClipProgressRouteTests {
    static let token = "abcdefghijklmnopqrstuvwx"

    @Test("the progress route answers waiting for a token it has no news of, and refuses a malformed one")
    func route() async throws {
        let front = try FrontHarness()
        let session = try front.signIn(did: DID.parse("did:plc:maya")!, handle: "maya.home.test")
        let cookies = [("Cookie", "gs_session=\(session)")]
        let waiting = await front.send(.get, "/create/progress?token=\(Self.token)", headers: cookies)
        #expect(waiting.status == .ok)
        #expect(waiting.text.contains(#""phase":"waiting""#))
        #expect(await front.send(.get, "/create/progress?token=x", headers: cookies).status == .badRequest)
    }
}
