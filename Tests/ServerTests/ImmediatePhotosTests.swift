import ATProto
import App
import Backend
import Foundation
import Imaging
import Server
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A household's photos answered on the server thread (`ImmediatePhotos`): the same answer as the full path, to the
/// same people, and withdrawn as soon as the backend withdraws the photo.
@Suite struct ImmediatePhotosTests {
    @Test(
        "a member's photo comes from memory after its first look-up, the same bytes and privacy; a stranger and a foreign host never get it; deleting the story withdraws it at the next request"
    )
    func fromMemoryUntilWithdrawn() async throws {
        let live = try await LiveApp(visibility: .household)
        defer { Task { await live.stop() } }
        let backend = try #require(live.app.backend)
        let browser = Browser(base: live.base)
        try await browser.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        let cookie = "gs_session=\(try #require(browser.cookie("gs_session")))"

        // A photo of its own, so that deleting its story leaves no other record holding it.
        let form = try await browser.get("/create")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first)
        var pixels = RGBImage(width: 64, height: 48, red: 0, green: 0, blue: 0)
        for index in pixels.pixels.indices { pixels.pixels[index] = UInt8.random(in: 0...255) }
        let jpeg = try Imaging.encodeJPEG(pixels, quality: 90)
        let posted = try await browser.postMultipart("/create", fields: [("csrf", csrf)], file: ("photo", "p.jpg", "image/jpeg", jpeg))
        let story = try #require(posted.location)
        let page = try await browser.get(story)
        let photo = try #require(captures(#"class="viewer__photo" src="([^"]+)""#, in: page.body).first)

        let first = try await Self.send(live.base + photo, headers: ["Cookie": cookie])
        let second = try await Self.send(live.base + photo, headers: ["Cookie": cookie])
        #expect(first.status == 200 && second.status == 200 && !first.body.isEmpty && first.body == second.body)
        #expect(first.headers["x-request-id"] != nil, "the first look-up reads the database on the full path")
        #expect(second.headers["x-request-id"] == nil, "the second is answered from memory on the server thread")
        for name in ["content-type", "cache-control", "etag", "x-content-type-options", "content-security-policy", "accept-ranges"] {
            #expect(second.headers[name] != nil && second.headers[name] == first.headers[name], "\(name)")
        }
        #expect((second.headers["cache-control"] ?? "").hasPrefix("private"))
        #expect(second.headers["access-control-allow-origin"] == nil, "a household's photo carries no CORS from the fast path either")

        // Conditions and ranges from memory too.
        let etag = try #require(first.headers["etag"])
        let unchanged = try await Self.send(live.base + photo, headers: ["Cookie": cookie, "If-None-Match": etag])
        #expect(unchanged.status == 304 && unchanged.body.isEmpty)
        let part = try await Self.send(live.base + photo, headers: ["Cookie": cookie, "Range": "bytes=10-109"])
        #expect(part.status == 206 && part.body == first.body[10..<110])
        #expect(part.headers["content-range"] == "bytes 10-109/\(first.body.count)")

        // Nobody else, however often the member asked.
        let stranger = try await Self.send(live.base + photo, headers: [:])
        #expect(stranger.status == 401 && stranger.body != first.body)
        let foreign = try await Self.send(live.base + photo, headers: ["Cookie": cookie, "Host": "rebound.example"])
        #expect(foreign.status == 421, "a name that is not ours gets nothing, as on the full path")

        // A session that ended is not let in from memory: a second sign-in of hers, used, then signed out.
        let other = Browser(base: live.base)
        try await other.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        let otherCookie = "gs_session=\(try #require(other.cookie("gs_session")))"
        #expect(try await Self.send(live.base + photo, headers: ["Cookie": otherCookie]).status == 200)
        let token = try #require(captures(#"data-csrf="([^"]+)""#, in: try await other.get("/").body).first)
        #expect(try await other.post("/logout", form: [("csrf", token)]).status == 303)
        #expect(try await Self.send(live.base + photo, headers: ["Cookie": otherCookie]).status == 401)

        // Withdrawn: the delete is a write, after which nothing remembered before it is used.
        let parts = story.split(separator: "/")
        let did = try #require(DID.parse(String(parts[1])))
        #expect(try backend.store.records.deleteRecord(did: did, collection: "social.grain.story", rkey: String(parts[3])))
        let gone = try await Self.send(live.base + photo, headers: ["Cookie": cookie])
        #expect(gone.status == 404, "the deleted story's photo: \(gone.status)")
    }

    @Test("behind a TLS proxy a member's photo comes from memory too, judged by the forwarded name: a name that is not ours gets 421 however often")
    func behindATLSProxy() async throws {
        let live = try await LiveApp(behindTLSProxy: true, visibility: .household)
        defer { Task { await live.stop() } }
        let canaries = try PrivateHouseholdTests.Canaries(try #require(live.app.backend))
        let browser = Browser(base: live.base, behindTLSProxy: true)
        try await browser.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        let cookie = "__Host-gs_session=\(try #require(browser.cookie("__Host-gs_session")))"
        let ours = String(live.base.dropFirst("http://".count))
        let proxied = ["Cookie": cookie, "X-Forwarded-Proto": "https", "X-Forwarded-Host": ours]
        let photo = live.base + canaries.images[0]

        let first = try await Self.send(photo, headers: proxied)
        let second = try await Self.send(photo, headers: proxied)
        #expect(first.status == 200 && second.status == 200 && first.body == second.body)
        #expect(first.headers["x-request-id"] != nil && second.headers["x-request-id"] == nil, "the second from memory")

        var rebound = proxied
        rebound["X-Forwarded-Host"] = "rebound.example"
        for _ in 0..<2 { #expect(try await Self.send(photo, headers: rebound).status == 421) }
        #expect(try await Self.send(photo, headers: ["X-Forwarded-Proto": "https", "X-Forwarded-Host": ours]).status == 401)
    }

    static func send(_ url: String, headers: [String: String]) async throws -> PrivateHouseholdTests.Answer {
        try await PrivateHouseholdTests.send("GET", url, headers: headers)
    }
}
