import ATProto
import Crypto
import Foundation
import HTTPServer
import HatkClient
import Outbound
import TestSupport
import Testing

@testable import App

/// A front that posts to Grain (or any remote hatk) offers photos only: a Grain session may upload only images, and
/// hatk answers any other type by deleting the person's stored session, signing them out of Grain everywhere.
@Suite struct ClipRefusalTests {
    /// The start of an MP4 as a phone writes it: an `ftyp` box of brand `isom`, then some of the file.
    static let mp4Head: [UInt8] =
        [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2avc1mp41".utf8)
        + [UInt8](repeating: 0, count: 4096)

    @Test("the form offers photos only and says why; a posted clip is refused with 415 before anything is sent upstream")
    func clipNeverLeavesForARemoteHatk() async throws {
        let stub = try StubHatk()
        let front = try FrontHarness(writer: stub.url)
        let session = try front.signIn(did: DID.parse("did:plc:maya")!, handle: "maya.bsky.social")
        let csrf = String(repeating: "c", count: 43)
        let cookies = [("Cookie", "gs_session=\(session); gs_csrf=\(csrf)")]

        let form = await front.send(.get, "/create", headers: cookies)
        #expect(form.text.contains(#"accept="image/*"#), "photos")
        #expect(!form.text.contains("video/*"), "and nothing else")
        #expect(form.text.contains("Grain accepts photos only"), "the form says why")

        let (type, body) = CreateFormTests.multipart([("csrf", csrf), ("location", "")], file: ("photo", Self.mp4Head))
        let answer = await front.send(
            .post, "/create", headers: cookies + [("Content-Type", type), ("Origin", "http://box.local:8080")], body: body)

        #expect(answer.status == .unsupportedMediaType)
        #expect(answer.text.contains("Clips can be posted only in a household on this server: Grain accepts photos only."))
        #expect(stub.calls.isEmpty, "nothing was sent upstream: \(stub.calls.map(\.nsid))")
        await stub.stop()
    }

    @Test("a hatk client made for a remote server refuses to send a non-image blob, before any connection")
    func clientRefusesClipsForRemoteServers() async throws {
        let stub = try StubHatk()
        let client = HatkClient(baseURL: stub.url, timeout: 5, policy: AddressPolicy.publicOnly.allowing([stub.url]))
        let credentials = DPoPCredentials(dpopKey: P256PrivateKey().rawRepresentation, accessToken: "at-maya")
        await #expect(throws: HatkError.self) { () async throws in
            _ = try await client.uploadBlob([0, 0, 0, 8] + Array("ftyp".utf8), mimeType: "video/mp4", as: credentials)
        }
        #expect(stub.calls.isEmpty)
        await stub.stop()
    }
}
