import ATProto
import Foundation
import HTTPServer
import HatkClient
import Lexicon
import Readers
import Synchronization
import TestSupport
import Testing

@testable import App

/// Favourites, comments, reports, mutes and blocks as the front sends them upstream: each write goes to the writer
/// with the visitor's DPoP credentials and hatk's input shape, answers the scripts in JSON and browsers with a
/// redirect, and a failing write is never reported as done.
@Suite struct SocialControllerTests {
    let stub: StubHatk
    let front: FrontHarness
    let maya: DID

    init() throws {
        stub = try StubHatk()
        front = try FrontHarness(writer: stub.url)
        maya = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
    }

    var story: StoryView { front.stories.story(maya, 0) }

    @Test("a favourite is createRecord of social.grain.favorite with the story as subject, signed as the visitor; fav= takes it back")
    func favourite() async throws {
        let jonas = try front.visitor("jonas.home.test")
        let path = SiteURL.favorite(did: maya.rawValue, rkey: story.rkey).path
        let made = await jonas.post(path, json: true)
        #expect(made.status == .ok)
        let call = try #require(stub.calls("dev.hatk.createRecord").first)
        #expect(call.body["collection"]?.stringValue == "social.grain.favorite")
        #expect(call.body["record"]?["subject"]?.stringValue == story.uri)
        #expect(call.body["record"]?["createdAt"]?.stringValue == front.clock.now.iso8601)
        #expect(call.authorization == "DPoP at-jonas.home.test")
        let uri = try #require(made.capture(#""fav":"([^"]+)""#))
        // Without scripts: back to the story.
        let undone = await jonas.post(path, [("fav", uri), ("return", SiteURL.story(did: maya.rawValue, rkey: story.rkey).path)])
        #expect(undone.status == .seeOther || undone.status == .found)
        #expect(undone.location == SiteURL.story(did: maya.rawValue, rkey: story.rkey).path)
        let deleted = try #require(stub.calls("dev.hatk.deleteRecord").first)
        #expect(deleted.body["collection"]?.stringValue == "social.grain.favorite")
        #expect(deleted.body["rkey"]?.stringValue == (try ATURI(uri)).rkey)
    }

    @Test("a favourite URI that is not the visitor's own favourite is refused, and nothing is deleted")
    func favouriteOfSomeoneElse() async throws {
        let jonas = try front.visitor("jonas.home.test")
        let path = SiteURL.favorite(did: maya.rawValue, rkey: story.rkey).path
        let forged = await jonas.post(path, [("fav", story.uri)])
        #expect(forged.status == .badRequest)
        #expect(stub.calls.isEmpty)
    }

    @Test("a failed favourite is not reported as saved: the scripts get an error status to roll back on")
    func failedFavourite() async throws {
        stub.fail("dev.hatk.createRecord", status: 500)
        let jonas = try front.visitor("jonas.home.test")
        let answer = await jonas.post(SiteURL.favorite(did: maya.rawValue, rkey: story.rkey).path, json: true)
        #expect(answer.status != .ok)
        #expect(!answer.text.contains(#""fav""#))
    }

    @Test("a comment carries its text, the story as subject, and link, mention and tag facets over the right UTF-8 bytes")
    func comment() async throws {
        front.stories.addAuthor(handle: "ines.home.test", count: 1, now: front.clock.now)
        let jonas = try front.visitor("jonas.home.test")
        let text = "Olá 👋 @ines.home.test see https://grain.social/x. #lisboa @nobody.example"
        let answer = await jonas.post(SiteURL.comments(did: maya.rawValue, rkey: story.rkey).path, [("text", text)], json: true)
        #expect(answer.status == .ok)
        let record = try #require(stub.calls("dev.hatk.createRecord").first?.body["record"])
        #expect(record["subject"]?.stringValue == story.uri)
        #expect(record["text"]?.stringValue == text)
        guard case .array(let facets)? = record["facets"] else {
            Issue.record("no facets")
            return
        }
        let bytes = Array(text.utf8)
        let covered = facets.map { facet -> String in
            let start = Int(facet["index"]?["byteStart"]?.intValue ?? -1)
            let end = Int(facet["index"]?["byteEnd"]?.intValue ?? -1)
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        // The unknown handle stays plain text: a mention needs the DID it resolves to.
        #expect(covered == ["@ines.home.test", "https://grain.social/x", "#lisboa"])
        guard case .array(let mention)? = facets[0]["features"] else { return }
        #expect(mention.first?["did"]?.stringValue == "did:plc:" + String(repeating: "i", count: 24))
    }

    @Test("comments are closed on expired stories, and an empty or over-long comment gets the form back with the reason")
    func commentRules() async throws {
        var jonas = try front.visitor("jonas.home.test")
        let path = SiteURL.comments(did: maya.rawValue, rkey: story.rkey).path
        let empty = await jonas.post(path, [("text", "   ")])
        #expect(empty.status == .badRequest && empty.text.contains("Write something first."))
        let long = await jonas.post(path, [("text", String(repeating: "é", count: 301))])
        #expect(long.status == .badRequest && long.text.contains("at most 300 characters"))
        front.clock.advance(hours: 25)
        jonas = try front.visitor("jonas.home.test")  // a fresh session: the first one's tokens are a day old
        let late = await jonas.post(path, [("text", "late")], json: true)
        #expect(late.status == .forbidden)
        #expect(stub.calls.isEmpty)
        let page = await jonas.get(path)
        #expect(page.text.contains("data-comments-closed") && !page.text.contains("data-comment-form"))
    }

    @Test("the comments page and JSON render the thread from untrusted text: facets only link to http(s) and our profiles")
    func commentThread() async throws {
        let author = ProfileView(cid: "", did: "did:plc:" + String(repeating: "x", count: 24), handle: "x.example", displayName: "<X>")
        var hostile = CommentView(
            uri: "at://\(author.did)/social.grain.comment/3kaaaaaaaaaa1", cid: "bafy", author: author, text: "click me <b>now</b>",
            createdAt: front.clock.now.iso8601)
        hostile.facets = [
            .object([
                "index": .object(["byteStart": .integer(0), "byteEnd": .integer(5)]),
                "features": .array([.object(["$type": .string("app.bsky.richtext.facet#link"), "uri": .string("javascript:alert(1)")])]),
            ])
        ]
        let uri = story.uri
        front.stories.content.withLock { $0.comments[uri] = [hostile] }
        let page = await front.page(SiteURL.comments(did: maya.rawValue, rkey: story.rkey).path)
        #expect(page.status == .ok)
        #expect(page.text.contains("click me &lt;b&gt;now&lt;/b&gt;") && !page.text.contains("javascript:"))
        #expect(page.text.contains("&lt;X&gt;"))
        let json = await front.page(SiteURL.commentsData(did: maya.rawValue, rkey: story.rkey).path)
        #expect(json.status == .ok && !json.text.contains("javascript:") && json.text.contains(#""open":true"#))
    }

    @Test("comments come a page at a time: the page and the JSON link to the older ones, which follow without repeats")
    func commentPaging() async throws {
        let author = ProfileView(cid: "", did: "did:plc:" + String(repeating: "x", count: 24), handle: "x.example")
        let start = front.clock.now.adding(seconds: -3600)
        let thread = (0..<25).map { i in
            CommentView(
                uri: "at://\(author.did)/social.grain.comment/3kcomment\(100 + i)a", cid: "bafy\(i)", author: author, text: "comment number \(i)",
                createdAt: start.adding(seconds: Double(i) * 60).iso8601)
        }
        let uri = story.uri
        front.stories.content.withLock { $0.comments[uri] = thread }
        let jonas = try front.visitor("jonas.home.test")

        let first = await jonas.get(SiteURL.comments(did: maya.rawValue, rkey: story.rkey).path)
        let firstTexts = captures(#"comment number (\d+)<"#, in: first.text)
        #expect(firstTexts.count == SocialController.commentsPerPage)
        #expect(first.text.contains("25 comments"))
        let older = try #require(captures(#"href="([^"]+)" data-comments-more"#, in: first.text).first)
        let second = await jonas.get(older.replacingOccurrences(of: "&amp;", with: "&"))
        let secondTexts = captures(#"comment number (\d+)<"#, in: second.text)
        #expect(secondTexts.count == 5 && !second.text.contains("data-comments-more"), "the rest, and no further link")
        #expect(Set(firstTexts + secondTexts) == Set((0..<25).map(String.init)), "every comment once")
        #expect(second.text.contains("data-comment-form"), "the form is on every page")

        // The viewer's panel reads the same pages as JSON.
        func uris(_ page: JSONValue) -> [String] {
            guard case .array(let comments)? = page["comments"] else { return [] }
            return comments.compactMap { $0["uri"]?.stringValue }
        }
        let data = await jonas.get(SiteURL.commentsData(did: maya.rawValue, rkey: story.rkey).path)
        let page1 = try JSONDecoder().decode(JSONValue.self, from: Data(data.text.utf8))
        #expect(uris(page1).count == SocialController.commentsPerPage && page1["total"] == .integer(25) && page1["open"] == .bool(true))
        let more = try #require(page1["more"]?.stringValue)
        let page2 = try JSONDecoder().decode(JSONValue.self, from: Data((await jonas.get(more)).text.utf8))
        #expect(uris(page2).count == 5 && page2["more"]?.stringValue == nil)
        #expect(Set(uris(page1) + uris(page2)) == Set(thread.map(\.uri)))
    }

    @Test("a story read through hatk's getStory (an expired permalink) shows no comment count and no heart rather than 0 and an unpressed one")
    func countsUnknownThroughGetStory() async throws {
        let jonas = try front.visitor("jonas.home.test")
        let jonasDID = "did:plc:" + String(repeating: "j", count: 24)
        // Two comments and jonas's favourite on each: getStories and getStoryArchive say so, getStory does not.
        let expired = front.stories.addArchived(maya, createdAt: front.clock.now.adding(seconds: -30 * 3600).iso8601)
        let recent = front.stories.addArchived(maya, createdAt: front.clock.now.adding(seconds: -3600).iso8601)
        front.stories.content.withLock { content in
            for i in content.archived[maya.rawValue]!.indices {
                content.archived[maya.rawValue]![i].commentCount = 2
                content.archived[maya.rawValue]![i].viewer = StoryViewerState(fav: "at://\(jonasDID)/social.grain.favorite/3kfav\(i)aaaaaa")
            }
        }
        for old in [expired, recent] {
            let page = await jonas.get(SiteURL.story(did: maya.rawValue, rkey: old.rkey).path)
            #expect(page.status == .ok)
            #expect(page.text.contains("data-comment-count hidden><"), "no count: the view did not say")
            #expect(!page.text.contains("data-comment-count>0<"))
            #expect(page.text.contains("data-fav-form hidden"), "no heart: the view did not say whether it is pressed")
            #expect(page.text.contains(#""known":false"#) && !page.text.contains(#""commentCount":0"#), "nor in the script's data")
        }
        // A live story read through getStories shows both.
        front.stories.update(maya, story: 0) { $0.commentCount = 2 }
        let live = await jonas.get(SiteURL.story(did: maya.rawValue, rkey: story.rkey).path)
        #expect(live.text.contains("data-comment-count>2<") && live.text.contains(#"data-fav-form>"#))
    }

    @Test("a report sends hatk's input: a strong ref with the story's CID, or the account, a label the upstream defines, the reason")
    func report() async throws {
        let jonas = try front.visitor("jonas.home.test")
        let sent = await jonas.post(SiteURL.report.path, [("story", story.uri), ("label", "nudity"), ("reason", "  not labelled  ")])
        #expect(sent.status == .ok && sent.text.contains("data-report-done"))
        let input = try #require(stub.calls("dev.hatk.createReport").first?.body)
        #expect(input["subject"]?["uri"]?.stringValue == story.uri && input["subject"]?["cid"]?.stringValue == story.cid)
        #expect(input["label"]?.stringValue == "nudity" && input["reason"]?.stringValue == "not labelled")
        _ = await jonas.post(SiteURL.report.path, [("actor", maya.rawValue), ("label", "spam")], json: true)
        let account = try #require(stub.calls("dev.hatk.createReport").last?.body)
        #expect(account["subject"]?["did"]?.stringValue == maya.rawValue && account["reason"] == nil)
        let unknown = await jonas.post(SiteURL.report.path, [("story", story.uri), ("label", "ugly")])
        #expect(unknown.status == .badRequest)
        let long = await jonas.post(SiteURL.report.path, [("story", story.uri), ("label", "spam"), ("reason", String(repeating: "a", count: 2001))])
        #expect(long.status == .badRequest)
        #expect(stub.calls("dev.hatk.createReport").count == 2)
    }

    @Test("report reasons are the upstream's describeLabels identifiers")
    func reportReasonsFromTheUpstream() async throws {
        front.stories.content.withLock {
            $0.labels = [LabelDefinition(identifier: "off-topic", severity: "inform", blurs: "none", defaultSetting: "ignore")]
        }
        let jonas = try front.visitor("jonas.home.test")
        let form = await jonas.get(SiteURL.report.with([("story", story.uri)]))
        #expect(form.text.contains(#"value="off-topic""#) && !form.text.contains(#"value="spam""#))
    }

    @Test("mute and unmute are hatk's procedures; unblock deletes the block record the upstream lists, never one from the form")
    func muteAndBlock() async throws {
        let jonas = try front.visitor("jonas.home.test")
        _ = await jonas.post(SiteURL.mute(actor: maya.rawValue).path)
        _ = await jonas.post(SiteURL.mute(actor: maya.rawValue).path, [("undo", "1")])
        #expect(stub.calls.map(\.nsid) == ["social.grain.graph.muteActor", "social.grain.graph.unmuteActor"])
        #expect(stub.calls.allSatisfy { $0.body["actor"]?.stringValue == maya.rawValue })
        _ = await jonas.post(SiteURL.block(actor: maya.rawValue).path)
        let block = try #require(stub.calls("dev.hatk.createRecord").first?.body)
        #expect(block["collection"]?.stringValue == "social.grain.graph.block" && block["record"]?["subject"]?.stringValue == maya.rawValue)
        let jonasDID = "did:plc:" + String(repeating: "j", count: 24)
        front.stories.content.withLock {
            $0.relationships[jonasDID] = ViewerRelationships(blocking: [maya.rawValue: "at://\(jonasDID)/social.grain.graph.block/3kblockaaaaa"])
        }
        _ = await jonas.post(SiteURL.block(actor: maya.rawValue).path, [("undo", "1"), ("uri", "at://x/social.grain.story/3kevil")])
        let deleted = try #require(stub.calls("dev.hatk.deleteRecord").first?.body)
        #expect(deleted["collection"]?.stringValue == "social.grain.graph.block" && deleted["rkey"]?.stringValue == "3kblockaaaaa")
        let own = await jonas.post(SiteURL.mute(actor: jonasDID).path)
        #expect(own.status == .badRequest)
    }

    @Test("without a session every write sends the browser to sign in (the scripts get 401), and nothing is written")
    func signedOut() async throws {
        let token = String(repeating: "c", count: 43)
        let headers = [
            ("Cookie", "gs_csrf=\(token)"), ("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "http://box.local:8080"),
        ]
        let browser = await front.send(
            .post, SiteURL.favorite(did: maya.rawValue, rkey: story.rkey).path, headers: headers, body: Array("csrf=\(token)".utf8))
        #expect(browser.status == .found && browser.location?.hasPrefix("/login?next=") == true)
        let script = await front.send(
            .post, SiteURL.comments(did: maya.rawValue, rkey: story.rkey).path, headers: headers + [("Accept", "application/json")],
            body: Array("csrf=\(token)&text=hi".utf8))
        #expect(script.status == .unauthorized)
        #expect(stub.calls.isEmpty)
    }

    @Test("every social form is CSRF-checked: a POST without the token is refused before anything is written")
    func csrf() async throws {
        let jonas = try front.visitor("jonas.home.test")
        for path in [
            SiteURL.favorite(did: maya.rawValue, rkey: story.rkey).path, SiteURL.comments(did: maya.rawValue, rkey: story.rkey).path,
            SiteURL.report.path, SiteURL.mute(actor: maya.rawValue).path, SiteURL.block(actor: maya.rawValue).path,
        ] {
            let answer = await front.send(
                .post, path, headers: [jonas.cookie, ("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "http://box.local:8080")],
                body: Array("csrf=wrong&text=x&label=spam&story=\(story.uri)".utf8))
            #expect(answer.status == .forbidden, "\(path)")
        }
        #expect(stub.calls.isEmpty)
    }
}
