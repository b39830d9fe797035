import ATProto
import Backend
import Foundation
import HTTPServer
import Lexicon
import TestSupport
import Testing

struct CrossPostTests {
    let url = "https://stories.example/profile/did:plc:abc/story/3jzfcijpj2z2a"

    @Test("the cross-post text is Grain's: empty first line, the place, then the hashtag and the story URL")
    func text() {
        #expect(CrossPost.text(place: "Lisbon, PT", storyURL: url) == "\n📍 Lisbon, PT\n\n#GrainSocial \(url)")
        #expect(CrossPost.text(place: nil, storyURL: url) == "\n#GrainSocial \(url)")
    }

    @Test("facets point at the hashtag and the link by UTF-8 byte offsets, past the 4-byte pin emoji")
    func facets() throws {
        let blob = BlobRef(cid: CID(hashing: [1, 2, 3], codec: .raw).description, mimeType: "image/jpeg", size: 3)
        let record = CrossPost.record(
            place: "Café Ñ", storyURL: url, image: blob, aspectRatio: AspectRatio(width: 3, height: 4), createdAt: "2026-08-19T12:00:00.000Z")
        let text = try #require(record["text"]?.stringValue)
        let bytes = Array(text.utf8)
        guard case .array(let facets)? = record["facets"] else { Issue.record("no facets"); return }
        #expect(facets.count == 2)
        func slice(_ facet: JSONValue) -> String {
            let start = Int(facet["index"]?["byteStart"]?.intValue ?? 0), end = Int(facet["index"]?["byteEnd"]?.intValue ?? 0)
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        #expect(slice(facets[0]) == "#GrainSocial")
        #expect(facets[0]["features"] == .array([.object(["$type": .string("app.bsky.richtext.facet#tag"), "tag": .string("GrainSocial")])]))
        #expect(slice(facets[1]) == url)
        #expect(record["tags"] == .array([.string("grainsocial")]))
        #expect(record["embed"]?["images"] != nil)
    }

    @Test("a very long place is shortened so the post stays within 300 characters, keeping the link whole")
    func longPlace() throws {
        let blob = BlobRef(cid: CID(hashing: [1], codec: .raw).description, mimeType: "image/jpeg", size: 1)
        let record = CrossPost.record(
            place: String(repeating: "Ü", count: 400), storyURL: url, image: blob, aspectRatio: AspectRatio(width: 1, height: 1),
            createdAt: "2026-08-19T12:00:00.000Z")
        let text = try #require(record["text"]?.stringValue)
        #expect(text.count <= 300)
        #expect(text.hasSuffix(url))
    }

    @Test("the embedded backend has no Bluesky: it refuses the cross-post with hatk's 400, stores nothing, and still takes stories")
    func backendRefusesCrossPost() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jpeg = try BackendFixture.jpeg(width: 40, height: 30)
        let blobJSON = try #require(await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg).json?["blob"])
        let blob = try blobJSON.decode(as: BlobRef.self)
        let record = CrossPost.record(
            place: "Lisbon", storyURL: url, image: blob, aspectRatio: AspectRatio(width: 40, height: 30), createdAt: f.clock.now.iso8601)
        try RecordValidator.validate(record, collection: CrossPost.collection)  // the record itself is a valid post
        let refused = await f.post("dev.hatk.createRecord", as: maya, json: .object(["collection": .string(CrossPost.collection), "record": record]))
        #expect(refused.status == 400)
        let error = try #require(refused.json?["error"]?.stringValue)
        #expect(error.contains("no Bluesky") && error.contains("nothing was posted"), "hatk's shape: the reason is the error string")
        #expect(refused.json?["uri"] == nil)
        let put = await f.post(
            "dev.hatk.putRecord", as: maya,
            json: .object(["collection": .string(CrossPost.collection), "rkey": .string("3jzfcijpj2z2a"), "record": record]))
        #expect(put.status == 400)
        #expect(try f.backend.store.records.records(of: maya.rawValue, collection: CrossPost.collection).isEmpty)
        let story = StoryRecord(media: blob, aspectRatio: AspectRatio(width: 40, height: 30), createdAt: f.clock.now.iso8601)
        #expect(await f.create(StoryRecord.collection, try JSONValue(encoding: story), as: maya).status == 200)
    }
}
