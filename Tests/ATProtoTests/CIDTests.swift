import ATProto
import Foundation
import Testing

struct CIDTests {
    /// The raw-codec CID of "hello world" as IPFS prints it with CIDv1 raw leaves.
    @Test("a blob CID matches the well-known CIDv1 raw of hello world")
    func rawCID() throws {
        let cid = CID(hashing: Array("hello world".utf8), codec: .raw)
        #expect(cid.description == "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e")
        #expect(try CID(cid.description) == cid)
        #expect(throws: SyntaxError.self) { try CID("bafk") }
    }

    /// Expected bytes and CID were produced by the `dag-cbor` and `multiformats` packages from PyPI.
    @Test("a record encodes to canonical DAG-CBOR and gets the same CID as the reference encoder")
    func recordCID() throws {
        let record: JSONValue = .object([
            "$type": .string("social.grain.story"),
            "media": .object([
                "$type": .string("blob"),
                "ref": .object(["$link": .string("bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e")]),
                "mimeType": .string("image/jpeg"), "size": .integer(812_345),
            ]),
            "aspectRatio": .object(["width": .integer(1500), "height": .integer(2000)]),
            "createdAt": .string("2026-08-19T21:03:11.123Z"),
            "labels": .object([
                "$type": .string("com.atproto.label.defs#selfLabels"),
                "values": .array([.object(["val": .string("nudity")])]),
            ]),
            "neg": .integer(-5), "big": .integer(5_000_000_000),
        ])
        let expectedHex =
            "a7636269671b000000012a05f200636e65672465247479706572736f6369616c2e677261696e2e73746f7279656d65646961a463726566d82a58250001551220b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde96473697a651a000c653965247479706564626c6f62686d696d65547970656a696d6167652f6a706567666c6162656c73a26524747970657821636f6d2e617470726f746f2e6c6162656c2e646566732373656c664c6162656c736676616c75657381a16376616c666e7564697479696372656174656441747818323032362d30382d31395432313a30333a31312e3132335a6b617370656374526174696fa26577696474681905dc666865696768741907d0"
        let bytes = try DAGCBOR.encode(record)
        #expect(bytes.map { String(format: "%02x", $0) }.joined() == expectedHex)
        #expect(try DAGCBOR.cid(of: record).description == "bafyreiaxjls5zxifjpwzrdoboguezojh5wct77wpwk25zqzbb7exiopygy")
    }

    @Test("floats are refused in records")
    func floatsRefused() {
        #expect(throws: DAGCBOR.EncodingError.self) { try DAGCBOR.encode(.object(["x": .number(1.5)])) }
    }

    @Test("minted local DIDs have the did:plc shape and differ")
    func localDIDs() {
        let a = LocalDID.mint()
        let b = LocalDID.mint()
        #expect(a != b)
        #expect(a.rawValue.count == "did:plc:".count + 24)
        #expect(DID.isValid(a.rawValue))
    }
}
