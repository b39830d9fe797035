import ATProto
import Backend
import Foundation
import HTTPServer
import Lexicon
import Testing

struct ProfileAndRecordTests {
    @Test("getActorProfile answers by DID or handle with a flat profile, and 400 Actor not found otherwise")
    func actorProfile() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya", displayName: "Maya Costa")
        for actor in [maya.rawValue, "maya.home.test", "MAYA.home.test"] {
            let (status, json, _) = await f.xrpc("social.grain.unspecced.getActorProfile", "actor=\(encode(actor))")
            #expect(status == 200)
            #expect(json?["did"]?.stringValue == maya.rawValue)
            #expect(json?["handle"]?.stringValue == "maya.home.test")
            #expect(json?["displayName"]?.stringValue == "Maya Costa")
        }
        let unknown = await f.xrpc("social.grain.unspecced.getActorProfile", "actor=nobody.home.test")
        #expect(unknown.status == 400)
        #expect(unknown.json == .object(["error": .string("Actor not found")]))
    }

    @Test("dev.hatk.getRecord returns hatk's envelope, and 404 Record not found for a missing record")
    func getRecord() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let uri = try f.story(by: maya, hoursAgo: 1)
        let (status, json, _) = await f.xrpc("dev.hatk.getRecord", "uri=\(encode(uri.description))")
        #expect(status == 200)
        let record = try #require(json?["record"])
        #expect(record["uri"]?.stringValue == uri.description)
        #expect(record["did"]?.stringValue == maya.rawValue)
        #expect(record["handle"]?.stringValue == "maya.home.test")
        #expect(record["indexed_at"]?.stringValue != nil)
        #expect(record["value"]?["$type"]?.stringValue == "social.grain.story")
        #expect(record["value"]?["media"]?["ref"]?["$link"]?.stringValue?.hasPrefix("bafkrei") == true)
        let missing = await f.xrpc("dev.hatk.getRecord", "uri=\(encode("at://\(maya.rawValue)/social.grain.story/3jzfcijpj2z2a"))")
        #expect(missing.status == 404)
        #expect(missing.json == .object(["error": .string("Record not found")]))
    }

    @Test("an unknown XRPC method is a JSON 404, and every XRPC answer allows any origin")
    func unknownMethod() async throws {
        let f = try BackendFixture()
        let (status, json, response) = await f.xrpc("com.example.nope")
        #expect(status == 404)
        #expect(json?["error"]?.stringValue?.contains("com.example.nope") == true)
        #expect(response.headers["Access-Control-Allow-Origin"] == "*")
    }
}
