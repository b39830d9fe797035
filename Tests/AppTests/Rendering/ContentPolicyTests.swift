import Foundation
import TestSupport
import Testing

@testable import App

/// The pages' policy allows scripts and styles from our own files only, with no nonce: that holds only while no
/// template has an inline script, style or event handler (docs/architecture.md, "The content policy without a nonce").
struct ContentPolicyTests {
    @Test("no template has an inline script, style element, style attribute or event handler; JSON data blocks are not scripts")
    func templatesHaveNothingInline() throws {
        let files = try templateFiles()
        #expect(files.count > 10)
        var found: [String] = []
        for (file, html) in files {
            for tag in captures(#"(<script\b[^>]*>)"#, in: html)
            where !tag.contains(" src=\"") && !tag.contains(#"type="application/json""#) {
                found.append("\(file): \(tag)")
            }
            for pattern in [#"(<style\b)"#, #"(\sstyle=)"#, #"(\son[a-z]+=)"#, #"(javascript:)"#] {
                found += captures(pattern, in: html).map { "\(file): \($0)" }
            }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("the policy names our own origin for scripts and styles and nothing inline")
    func policyHasNoInlineSource() {
        let header = ContentPolicy(ContentPolicy.Sources()).header()
        #expect(header.contains("script-src 'self';") && header.contains("style-src 'self';"))
        #expect(!header.contains("nonce") && !header.contains("unsafe") && !header.contains("strict-dynamic"))
    }
}
