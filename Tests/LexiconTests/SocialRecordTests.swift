import ATProto
import Foundation
import Lexicon
import Testing

struct SocialRecordTests {
    @Test("favourite, comment and block records encode as Grain writes them and validate")
    func recordsValidate() throws {
        let favorite = try JSONValue(
            encoding: FavoriteRecord(subject: "at://did:plc:a/social.grain.story/3jzfcijpj2z2a", createdAt: "2026-08-19T12:00:00.000Z"))
        #expect(favorite["$type"] == .string("social.grain.favorite"))
        try RecordValidator.validate(favorite, collection: FavoriteRecord.collection)
        let comment = try JSONValue(
            encoding: CommentRecord(text: "hi", subject: "at://did:plc:a/social.grain.story/3jzfcijpj2z2a", createdAt: "2026-08-19T12:00:00.000Z"))
        #expect(comment["facets"] == nil && comment["replyTo"] == nil, "absent fields are left out")
        try RecordValidator.validate(comment, collection: CommentRecord.collection)
        let block = try JSONValue(encoding: BlockRecord(subject: "did:plc:a", createdAt: "2026-08-19T12:00:00.000Z"))
        try RecordValidator.validate(block, collection: BlockRecord.collection)
    }

    @Test("report subjects encode as a strongRef or a repoRef and decode back")
    func reportSubject() throws {
        let record = ReportSubject.record(uri: "at://did:plc:a/social.grain.story/3jzfcijpj2z2a", cid: "bafy")
        let json = try JSONValue(encoding: record)
        #expect(json["$type"] == .string("com.atproto.repo.strongRef"))
        #expect(try json.decode(as: ReportSubject.self) == record)
        let account = ReportSubject.account(did: "did:plc:a")
        #expect(try JSONValue(encoding: account)["did"] == .string("did:plc:a"))
        #expect(try JSONValue(encoding: account).decode(as: ReportSubject.self) == account)
    }
}
