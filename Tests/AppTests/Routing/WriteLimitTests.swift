import ATProto
import HTTPServer
import HatkClient
import Lexicon
import TestSupport
import Testing

@testable import App

/// Issue 25, N4: each person's comments, favourites, mutes, blocks, seen marks and reports are limited per minute and
/// per day, with an answer that says to slow down; one comment looks up a bounded number of mentions.
@Suite struct WriteLimitTests {
    let stub: StubHatk
    let front: FrontHarness
    let maya: DID

    init() throws {
        stub = try StubHatk()
        var settings = FrontSettings()
        settings.writeLimits = Dictionary(uniqueKeysWithValues: SocialWrite.allCases.map { ($0, WriteLimit(perMinute: 3, perDay: 5)) })
        front = try FrontHarness(settings: settings, writer: stub.url)
        maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
    }

    var story: StoryView { front.stories.story(maya, 0) }
    var commentsPath: String { SiteURL.comments(did: maya.rawValue, rkey: story.rkey).path }

    @Test("a fourth comment in a minute is refused with 429, Retry-After and a page that says to slow down; nothing reaches the story server")
    func commentsPastTheMinuteLimit() async throws {
        let jonas = try front.visitor("jonas.home.test")
        for n in 1...3 {
            #expect(await jonas.post(commentsPath, [("text", "Lovely \(n)")]).status == .seeOther)
        }
        let refused = await jonas.post(commentsPath, [("text", "One more")])
        #expect(refused.status == .tooManyRequests)
        let wait = try #require(Int(refused.headers["Retry-After"] ?? ""))
        #expect((1...60).contains(wait))
        #expect(refused.text.contains("Slow down"))
        #expect(refused.text.contains("You are commenting faster than this server allows. Wait \(wait) seconds"))
        #expect(stub.calls("dev.hatk.createRecord").count == 3)

        // The scripts get the same refusal as JSON.
        let json = await jonas.post(commentsPath, [("text", "One more")], json: true)
        #expect(json.status == .tooManyRequests)
        #expect(json.text.contains(#""error":"RateLimited""#))

        // Someone else's allowance is their own; and a minute later Jonas may write again.
        let ines = try front.visitor("ines.home.test")
        #expect(await ines.post(commentsPath, [("text", "Hi")]).status == .seeOther)
        front.clock.advance(seconds: 61)
        #expect(await jonas.post(commentsPath, [("text", "Later")]).status == .seeOther)
    }

    @Test("the day's cap holds after the minute's window has passed, and its wait is said in hours")
    func commentsPastTheDayCap() async throws {
        let jonas = try front.visitor("jonas.home.test")
        for n in 1...5 {
            #expect(await jonas.post(commentsPath, [("text", "Comment \(n)")]).status == .seeOther)
            front.clock.advance(seconds: 61)
        }
        let refused = await jonas.post(commentsPath, [("text", "Sixth")])
        #expect(refused.status == .tooManyRequests)
        let wait = try #require(Int(refused.headers["Retry-After"] ?? ""))
        #expect(wait > 3_600)
        #expect(refused.text.contains("Wait about"))
        #expect(refused.text.contains("hours"))
        #expect(stub.calls("dev.hatk.createRecord").count == 5)
    }

    @Test("every limited kind of write (favourite, comment, report, mute, block, seen mark) is counted")
    func everyKindIsCounted() async throws {
        let rkey = story.rkey
        let did = maya.rawValue
        let writes: [(SocialWrite, String, [(String, String)], Bool)] = [
            (.favourite, SiteURL.favorite(did: did, rkey: rkey).path, [], true),
            (.comment, SiteURL.comments(did: did, rkey: rkey).path, [("text", "Lovely")], false),
            (.report, SiteURL.report.path, [("story", story.uri), ("label", "spam")], false),
            (.mute, SiteURL.mute(actor: did).path, [], false),
            (.block, SiteURL.block(actor: did).path, [], false),
            (.seen, SiteURL.seen.path, [("uri", story.uri)], true),
        ]
        var covered = Set<SocialWrite>()
        for (kind, path, fields, json) in writes {
            // A visitor of their own per kind, so that each kind's count starts at zero.
            let visitor = try front.visitor("\(kind.rawValue.first!)\(kind.rawValue).home.test")
            for _ in 1...3 { #expect(await visitor.post(path, fields, json: json).status != .tooManyRequests, "\(kind)") }
            let refused = await visitor.post(path, fields, json: json)
            #expect(refused.status == .tooManyRequests, "\(kind) at \(path)")
            #expect(refused.headers["Retry-After"] != nil)
            covered.insert(kind)
        }
        #expect(covered == Set(SocialWrite.allCases))
    }

    @Test("a comment naming many people looks up only the first ten; the rest stay plain text")
    func mentionLookupsAreCapped() async throws {
        var handles: [String] = []
        for letter in "abcdefghklnopqrstu" {
            let handle = "\(letter)f.home.test"
            front.stories.addAuthor(handle: handle, count: 1, now: front.clock.now)
            handles.append(handle)
        }
        let jonas = try front.visitor("jonas.home.test")
        let text = handles.map { "@" + $0 }.joined(separator: " ")
        #expect(await jonas.post(commentsPath, [("text", text)], json: true).status == .ok)
        let record = try #require(stub.calls("dev.hatk.createRecord").first?.body["record"])
        guard case .array(let facets)? = record["facets"] else {
            Issue.record("no facets")
            return
        }
        #expect(handles.count > SocialActions.maxMentionLookups)
        #expect(facets.count == SocialActions.maxMentionLookups)
    }
}
