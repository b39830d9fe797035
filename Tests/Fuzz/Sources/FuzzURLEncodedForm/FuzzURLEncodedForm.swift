import FuzzSupport
import HTTPServer

// Input: a form body (also used as a query string).
//
// Properties:
// - parsing never traps; it refuses exactly the bodies with more than `maxFields` non-empty `&`-pieces;
// - the parsed fields, percent-encoded again, parse back to the same fields (byte for byte);
// - `Request.queryItems` reads the same text as the same pairs: query strings and form bodies share the
//   application/x-www-form-urlencoded syntax.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLEncodedForm(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = Fuzz.bytes(data, size)
    let pieces = input.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).count
    let form: URLEncodedForm
    do {
        form = try URLEncodedForm(input)
    } catch {
        Fuzz.require(pieces > URLEncodedForm.maxFields, "refused a body of \(pieces) pieces: \(error)")
        return 0
    }
    Fuzz.require(form.fields.count == pieces, "\(pieces) pieces but \(form.fields.count) fields")

    let encoded = form.fields.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    let reparsed = try? URLEncodedForm(Array(encoded.utf8))
    Fuzz.require(reparsed.map { same($0.fields, form.fields) } ?? false, "re-encoded form \(encoded) reads differently")

    // The query path works on a String, so compare on input that is valid UTF-8 (MHD hands over a C string).
    if let text = String(validating: input, as: UTF8.self), !input.contains(0) {
        let request = Request(method: .get, path: "/", query: text)
        Fuzz.require(same(request.queryItems, form.fields), "query items \(request.queryItems) != form \(form.fields)")
    }
    return 0
}

/// Field lists compared byte for byte (String `==` would treat canonically equivalent text as equal).
func same(_ a: [(name: String, value: String)], _ b: [(name: String, value: String)]) -> Bool {
    a.count == b.count
        && zip(a, b).allSatisfy {
            Array($0.name.utf8) == Array($1.name.utf8) && Array($0.value.utf8) == Array($1.value.utf8)
        }
}

/// Percent-encodes every byte except unreserved characters, as a browser's form encoder would.
func encode(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            out.append(byte)
        case UInt8(ascii: " "):
            out.append(UInt8(ascii: "+"))
        default:
            out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
    }
    return String(decoding: out, as: UTF8.self)
}
