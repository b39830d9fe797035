import Foundation
import Testing

@testable import HTTPServer

/// The fuzzer's multipart seeds and regressions, each parsed from memory and from disk: one parser, two sources,
/// the same answer.
struct MultipartCorpusTests {
    /// Tests/Fuzz/{Corpus,Regressions}/FuzzMultipart, found from this file's path.
    static let inputs: [String] = {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz")
        return ["Corpus", "Regressions"].flatMap { folder -> [String] in
            let directory = fuzz.appendingPathComponent(folder).appendingPathComponent("FuzzMultipart").path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { directory + "/" + $0 }
        }
    }()

    /// A parse as comparable text: each part's fields and bytes, or the error.
    private static func outcome(_ parse: () throws(MultipartForm.ParseError) -> MultipartForm) -> String {
        do {
            return try parse().parts.map { part in
                let bytes = (try? part.body.load()) ?? []
                return "\(part.name)|\(part.filename ?? "-")|\(part.contentType ?? "-")|\(bytes)"
            }.joined(separator: "\n")
        } catch {
            return "error: \(error.description)"
        }
    }

    @Test("the corpus is there to replay")
    func corpusFound() {
        #expect(Self.inputs.count >= 8)
    }

    @Test("every multipart seed and regression parses the same from disk as from memory", arguments: inputs)
    func sameFromDisk(_ path: String) throws {
        // setup: the fuzzer's input format, Content-Type line then body
        let input = try #require(FileManager.default.contents(atPath: path).map { Array($0) })
        let newline = input.firstIndex(of: 0x0A) ?? input.count
        let contentType = String(decoding: input[..<newline], as: UTF8.self)
        let body = Array(input[min(newline + 1, input.count)...])
        let directory = try TemporaryDirectory()
        let file = directory.path + "/body"
        try Data(body).write(to: URL(fileURLWithPath: file))

        // MUT
        let memory = Self.outcome { () throws(MultipartForm.ParseError) in try MultipartForm(body, contentType: contentType) }
        let disk = Self.outcome { () throws(MultipartForm.ParseError) in
            try MultipartForm(.file(BodyFile(path: file, count: body.count)), contentType: contentType)
        }

        // validate
        #expect(memory == disk)
    }
}
