import ATProto
import FuzzSupport

// Input: a candidate identifier; split at newlines, its first three lines are also an AT-URI's authority,
// collection and record key.
//
// Properties (besides never trapping):
// - whatever a parser accepts renders back to the same bytes and parses again to an equal value (DID, handle
//   lower-cased, NSID, TID, AT-URI), and is ASCII within the documented length limits;
// - an AT-URI is accepted exactly when its three parts are each accepted by their own parsers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzATProtoSyntax(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = Fuzz.bytes(data, size)
    let text = String(decoding: input, as: UTF8.self)
    checkDID(text)
    checkHandle(text)
    checkNSID(text)
    checkRecordKey(text)
    checkTID(text)
    checkATURI(text)

    let lines = Fuzz.fields(input, separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    if lines.count >= 3 {
        let (authority, collection, rkey) = (lines[0], lines[1], lines[2])
        let partsValid =
            (DID.isValid(authority) || Handle.isValid(authority)) && NSID.isValid(collection)
            && RecordKey.isValid(rkey)
        let uri = try? ATURI("at://\(authority)/\(collection)/\(rkey)")
        Fuzz.require((uri != nil) == partsValid, "at://\(authority)/\(collection)/\(rkey): parts valid \(partsValid)")
        if let uri {
            Fuzz.require(
                uri == ATURI(authority: authority, collection: collection, rkey: rkey),
                "\(uri) has different parts"
            )
        }
    }
    return 0
}

func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

func checkDID(_ text: String) {
    guard let did = DID.parse(text) else { return }
    Fuzz.require(Array(did.rawValue.utf8) == Array(text.utf8), "DID \(did) changed the input")
    Fuzz.require(isASCII(text) && text.utf8.count <= 2048, "DID \(did) is not short ASCII")
    Fuzz.require(DID.parse(did.description) == did, "DID \(did) does not parse back")
    Fuzz.require(!did.method.isEmpty && did.method.allSatisfy { $0.isLowercase }, "DID method \(did.method)")
}

func checkHandle(_ text: String) {
    guard Handle.isValid(text) else { return }
    guard let handle = try? Handle(text) else { Fuzz.fail("isValid but init throws: \(text)") }
    Fuzz.require(isASCII(text) && text.utf8.count <= 253, "handle \(text) is not short ASCII")
    Fuzz.require(Array(handle.rawValue.utf8) == Array(text.lowercased().utf8), "handle \(handle) is not lower-cased")
    Fuzz.require((try? Handle(handle.rawValue)) == handle, "handle \(handle) does not parse back")
}

func checkNSID(_ text: String) {
    guard NSID.isValid(text) else { return }
    guard let nsid = try? NSID(text) else { Fuzz.fail("isValid but init throws: \(text)") }
    Fuzz.require(isASCII(text) && text.utf8.count <= 317, "NSID \(text) is not short ASCII")
    Fuzz.require((try? NSID(nsid.description)) == nsid, "NSID \(nsid) does not parse back")
}

func checkRecordKey(_ text: String) {
    guard RecordKey.isValid(text) else { return }
    Fuzz.require(isASCII(text) && (1...512).contains(text.utf8.count), "record key \(text) is not short ASCII")
    Fuzz.require(text != "." && text != "..", "record key \(text)")
}

func checkTID(_ text: String) {
    guard let tid = try? TID(text) else { return }
    Fuzz.require(Array(tid.description.utf8) == Array(text.utf8), "TID \(text) renders as \(tid)")
    Fuzz.require(RecordKey.isValid(tid.description), "TID \(tid) is not a record key")
    // The syntax admits a set top bit (first character `c`…`j`) that the 53-bit timestamp cannot hold.
    guard tid.value >> 63 == 0 else { return }
    let rebuilt = TID(microseconds: tid.microseconds, clockID: tid.value & 0x3FF)
    Fuzz.require(rebuilt == tid, "TID \(tid) rebuilt from its parts is \(rebuilt)")
}

func checkATURI(_ text: String) {
    guard let uri = try? ATURI(text) else { return }
    Fuzz.require(Array(uri.description.utf8) == Array(text.utf8), "AT-URI \(text) renders as \(uri)")
    Fuzz.require((try? ATURI(uri.description)) == uri, "AT-URI \(uri) does not parse back")
    Fuzz.require(
        (DID.isValid(uri.authority) || Handle.isValid(uri.authority)) && NSID.isValid(uri.collection)
            && RecordKey.isValid(uri.rkey),
        "AT-URI \(uri) has an invalid part"
    )
}
