import ATProto
import Foundation
import HTTPServer
import TestSupport

@testable import App

/// A signed-in visitor's requests, as their browser would send them: the session cookie, a CSRF cookie and its
/// token in every form, our own origin on POSTs.
struct Visitor {
    let front: FrontHarness
    let session: String
    let csrf = String(repeating: "c", count: 43)

    var cookie: (String, String) { ("Cookie", "gs_session=\(session); gs_csrf=\(csrf)") }

    func get(_ path: String) async -> Response {
        await front.send(.get, path, headers: [cookie])
    }

    /// A form POST; with `json` it asks for the scripts' JSON answer.
    func post(_ path: String, _ fields: [(String, String)] = [], json: Bool = false) async -> Response {
        var headers = [cookie, ("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "http://box.local:8080")]
        if json { headers.append(("Accept", "application/json")) }
        let body = formEncoded([("csrf", csrf)] + fields)
        return await front.send(.post, path, headers: headers, body: Array(body.utf8))
    }

}

extension FrontHarness {
    /// Signs `handle` in (a DID made from its first letter, as `FakeStories.addAuthor` makes them).
    func visitor(_ handle: String) throws -> Visitor {
        let did = try DID("did:plc:" + String(repeating: String(handle.prefix(1)), count: 24))
        return Visitor(front: self, session: try signIn(did: did, handle: handle))
    }

    /// An anonymous visitor's page.
    func page(_ path: String) async -> Response { await send(.get, path) }
}

extension Response {
    /// The first capture of `pattern` in the body.
    func capture(_ pattern: String) -> String? {
        let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        let text = self.text
        guard let match = regex?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    var location: String? { headers["Location"] }
}
