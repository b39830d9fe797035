import Foundation
import TestSupport

/// Every template in `Templates/` (partials included) with its text, for the tests that read them all.
func templateFiles() throws -> [(name: String, html: String)] {
    let directory = repositoryRoot.appendingPathComponent("Templates")
    return try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".html") }.sorted().map {
        ($0, try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8))
    }
}
