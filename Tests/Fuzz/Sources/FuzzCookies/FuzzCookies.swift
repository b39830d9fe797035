import FuzzSupport
import HTTPServer

// Input: the values of one or more `Cookie` headers, one per line.
//
// Properties:
// - parsing never traps;
// - every name is an RFC 6265 token and every value is free of spaces, controls, `"` and the `;` separator;
// - the result equals a byte-level reading of the same headers (split at `;`, first `=`, ASCII spaces and tabs
//   trimmed, one pair of surrounding quotes removed, first occurrence of a name wins), which is how browsers
//   and RFC 6265 delimit cookies;
// - `cookie(name)` answers what `cookies[name]` holds, for every name found and for names that are absent.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookies(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = Fuzz.bytes(data, size)
    var headers = HTTPHeaders()
    for line in Fuzz.fields(input, separator: 0x0A) {
        headers.add("Cookie", String(decoding: line, as: UTF8.self))
    }
    let cookies = Request(method: .get, path: "/", headers: headers).cookies
    for (name, value) in cookies {
        Fuzz.require(CookieReference.isToken(Array(name.utf8)), "cookie name \(name.debugDescription) is not a token")
        Fuzz.require(
            value.utf8.allSatisfy(CookieReference.isValueByte) && !value.utf8.contains(UInt8(ascii: ";")),
            "cookie \(name) has the value \(value.debugDescription)"
        )
    }
    let expected = CookieReference.parse(headers.values("Cookie"))
    Fuzz.require(
        expected.count == cookies.count
            && expected.allSatisfy { name, value in cookies[name].map { Array($0.utf8) == Array(value.utf8) } ?? false },
        "parsed \(cookies), expected \(expected)"
    )
    let request = Request(method: .get, path: "/", headers: headers)
    for name in Array(cookies.keys) + ["absent", "__Host-grain_session", ""] {
        Fuzz.require(request.cookie(name) == cookies[name], "cookie(\(name.debugDescription)) disagrees with cookies")
    }
    return 0
}

/// An independent byte-level cookie reader to compare against.
enum CookieReference {
    static let separators = Set("()<>@,;:\\\"/[]?={} \t".utf8)

    static func isToken(_ bytes: [UInt8]) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && !separators.contains($0) }
    }

    static func isValueByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte != 0x7F && byte != UInt8(ascii: "\"")
    }

    static func parse(_ headers: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for header in headers {
            for pair in Array(header.utf8).split(separator: UInt8(ascii: ";")) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = trim(pair[..<equals])
                var value = trim(pair[(equals + 1)...])
                guard isToken(Array(name)) else { continue }
                let key = String(decoding: name, as: UTF8.self)
                guard result[key] == nil else { continue }
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                    value = value.dropFirst().dropLast()
                }
                guard value.allSatisfy(isValueByte) else { continue }
                result[key] = String(decoding: value, as: UTF8.self)
            }
        }
        return result
    }

    static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var result = bytes
        while let first = result.first, first == 0x20 || first == 0x09 { result = result.dropFirst() }
        while let last = result.last, last == 0x20 || last == 0x09 { result = result.dropLast() }
        return result
    }
}
