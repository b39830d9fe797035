import ATProto
import Foundation

/// A small validator for the lexicon types our XRPC outputs use, reading the lexicon documents in
/// `Tests/Fixtures/lexicons` (verbatim copies of Grain's and hatk's), so tests check shapes against the
/// published schemas rather than against our own Codable types.
struct LexiconValidator {
    let documents: [String: JSONValue]

    static let directory: String = {
        if let path = ProcessInfo.processInfo.environment["GRAIN_LEXICONS"] { return path }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return repo.appendingPathComponent("Tests/Fixtures/lexicons").path
    }()

    init() throws {
        var documents: [String: JSONValue] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.directory) where file.hasSuffix(".json") {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.directory + "/" + file))
            let document = try JSONDecoder().decode(JSONValue.self, from: data)
            if let id = document["id"]?.stringValue { documents[id] = document }
        }
        self.documents = documents
    }

    /// Problems found validating `value` against the output schema of the query `nsid`.
    func validateOutput(_ value: JSONValue, of nsid: String) -> [String] {
        guard let schema = documents[nsid]?["defs"]?["main"]?["output"]?["schema"] else { return ["no output schema for \(nsid)"] }
        var problems: [String] = []
        check(value, against: schema, in: nsid, path: "output", problems: &problems)
        return problems
    }

    /// Problems found validating `value` against the input schema of the procedure `nsid`.
    func validateInput(_ value: JSONValue, of nsid: String) -> [String] {
        guard let schema = documents[nsid]?["defs"]?["main"]?["input"]?["schema"] else { return ["no input schema for \(nsid)"] }
        var problems: [String] = []
        check(value, against: schema, in: nsid, path: "input", problems: &problems)
        return problems
    }

    /// Problems found validating `value` against the record schema of the collection `nsid`.
    func validateRecord(_ value: JSONValue, of nsid: String) -> [String] {
        guard let schema = documents[nsid]?["defs"]?["main"]?["record"] else { return ["no record schema for \(nsid)"] }
        var problems: [String] = []
        check(value, against: schema, in: nsid, path: "record", problems: &problems)
        return problems
    }

    static func documentName(_ ref: String, from nsid: String) -> String {
        if ref.hasPrefix("#") { return nsid }
        return ref.firstIndex(of: "#").map { String(ref[..<$0]) } ?? ref
    }

    private func resolve(_ ref: String, from nsid: String) -> (JSONValue, String)? {
        let (document, name): (String, String)
        if ref.hasPrefix("#") {
            (document, name) = (nsid, String(ref.dropFirst()))
        } else if let hash = ref.firstIndex(of: "#") {
            (document, name) = (String(ref[..<hash]), String(ref[ref.index(after: hash)...]))
        } else {
            (document, name) = (ref, "main")
        }
        return documents[document]?["defs"]?[name].map { ($0, document) }
    }

    private func check(_ value: JSONValue, against schema: JSONValue, in nsid: String, path: String, problems: inout [String]) {
        switch schema["type"]?.stringValue {
        case "ref":
            guard let ref = schema["ref"]?.stringValue else {
                problems.append("\(path): ref without a target")
                return
            }
            guard let (target, document) = resolve(ref, from: nsid) else {
                // Lexicons not copied here (app.bsky.richtext.facet, …) are open objects; a missing def of a copied
                // document is a real problem.
                if documents[Self.documentName(ref, from: nsid)] != nil { problems.append("\(path): unresolvable ref \(ref)") }
                return
            }
            check(value, against: target, in: document, path: path, problems: &problems)
        case "union":
            guard case .array(let refs)? = schema["refs"] else { return }
            let candidates = refs.compactMap { $0.stringValue.flatMap { resolve($0, from: nsid) } }
            let fits = candidates.contains { target in
                var scratch: [String] = []
                check(value, against: target.0, in: target.1, path: path, problems: &scratch)
                return scratch.isEmpty
            }
            if !fits { problems.append("\(path): matches no member of the union") }
        case "object":
            guard case .object(let fields) = value else {
                problems.append("\(path): expected an object")
                return
            }
            if case .array(let required)? = schema["required"] {
                for key in required.compactMap(\.stringValue) where fields[key] == nil {
                    problems.append("\(path).\(key): required but missing")
                }
            }
            if case .object(let properties)? = schema["properties"] {
                for (key, property) in properties {
                    guard let field = fields[key] else { continue }
                    check(field, against: property, in: nsid, path: "\(path).\(key)", problems: &problems)
                }
            }
        case "array":
            guard case .array(let items) = value else {
                problems.append("\(path): expected an array")
                return
            }
            if let max = schema["maxLength"]?.intValue, items.count > max { problems.append("\(path): too many items") }
            if let min = schema["minLength"]?.intValue, items.count < min { problems.append("\(path): too few items") }
            if let itemSchema = schema["items"] {
                for (i, item) in items.enumerated() { check(item, against: itemSchema, in: nsid, path: "\(path)[\(i)]", problems: &problems) }
            }
        case "string":
            guard case .string(let s) = value else {
                problems.append("\(path): expected a string")
                return
            }
            if let max = schema["maxLength"]?.intValue, s.utf8.count > max { problems.append("\(path): longer than \(max) bytes") }
            if let max = schema["maxGraphemes"]?.intValue, s.count > max { problems.append("\(path): longer than \(max) graphemes") }
            if let min = schema["minLength"]?.intValue, s.utf8.count < min { problems.append("\(path): shorter than \(min)") }
            if let format = schema["format"]?.stringValue, !Self.matches(s, format: format) {
                problems.append("\(path): \"\(s.prefix(60))\" is not a valid \(format)")
            }
        case "integer":
            guard case .integer(let i) = value else {
                problems.append("\(path): expected an integer")
                return
            }
            if let min = schema["minimum"]?.intValue, i < min { problems.append("\(path): below \(min)") }
            if let max = schema["maximum"]?.intValue, i > max { problems.append("\(path): above \(max)") }
        case "boolean":
            if case .bool = value {} else { problems.append("\(path): expected a boolean") }
        default:
            break  // unknown, blob, bytes, cid-link: not used in our outputs beyond presence
        }
    }

    static func matches(_ s: String, format: String) -> Bool {
        switch format {
        case "did": return DID.isValid(s)
        case "handle": return Handle.isValid(s) || DID.isValid(s)
        case "at-uri": return (try? ATURI(s)) != nil
        case "cid": return s.isEmpty || (try? CID(s)) != nil
        case "datetime": return UTCTime(iso8601: s) != nil
        case "uri":
            // RFC 3986: a scheme, a colon, and no spaces (Foundation's URL refuses at:// URIs with a DID host).
            guard let colon = s.firstIndex(of: ":"), colon != s.startIndex, !s.contains(where: \.isWhitespace) else { return false }
            return s[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "+.-".contains($0) } && s.first!.isLetter
        default: return true
        }
    }
}
