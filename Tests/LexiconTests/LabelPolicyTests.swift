import ATProto
import Lexicon
import Testing

struct LabelPolicyTests {
    func label(_ val: String, src: String = "did:plc:author", cts: String = "2026-08-19T12:00:00.000Z", neg: Bool? = nil) -> Label {
        Label(src: src, uri: "at://did:plc:author/social.grain.story/3jzfcijpj2z2a", cid: nil, val: val, cts: cts, neg: neg)
    }

    @Test("Grain's definitions resolve as its web app does: nudity and sexual blur the photo, gore and spam hide")
    func grainDefinitions() {
        let expected: [String: LabelAction] = [
            "nudity": .warnMedia, "sexual": .warnMedia, "gore": .hide, "spam": .hide, "copyright": .hide,
            "harassment": .badge, "misleading": .badge, "other": .badge,
        ]
        for (value, action) in expected {
            #expect(LabelPolicy.grain.resolve(values: [value]).action == action, "\(value)")
        }
        #expect(LabelPolicy.grain.resolve(values: ["nudity"]) == LabelDecision(action: .warnMedia, label: "nudity", name: "Nudity"))
        #expect(Set(LabelDefinition.grain.map(\.identifier)).count == 8)
    }

    @Test("well-known atproto values fall back as Grain's client does, and unknown values are ignored")
    func fallbacks() {
        let expected: [String: LabelAction] = [
            "porn": .warnMedia, "nsfl": .hide, "dmca-violation": .hide, "doxxing": .hide, "!hide": .hide, "!warn": .warnContent,
            "!takedown": .hide, "made-up": .none,
        ]
        for (value, action) in expected {
            #expect(LabelPolicy(definitions: []).resolve(values: [value]).action == action, "\(value)")
        }
        #expect(LabelPolicy.grain.resolve([]) == .none)
    }

    @Test("the most restrictive label wins, whatever the order")
    func worstWins() {
        #expect(LabelPolicy.grain.resolve(values: ["other", "nudity", "gore"]).label == "gore")
        #expect(LabelPolicy.grain.resolve(values: ["gore", "nudity"]).action == .hide)
        #expect(LabelPolicy.grain.resolve([label("harassment"), label("sexual")]).action == .warnMedia)
    }

    @Test("a server's own definitions replace the fallbacks; hide without a blur warns about the content instead")
    func serverDefinitions() {
        let policy = LabelPolicy(definitions: [
            LabelDefinition(identifier: "porn", severity: "alert", blurs: "none", defaultSetting: "hide"),
            LabelDefinition(identifier: "spoiler", severity: "inform", blurs: "content", defaultSetting: "warn"),
            LabelDefinition(identifier: "mild", severity: "none", blurs: "media", defaultSetting: "ignore"),
        ])
        #expect(policy.resolve(values: ["porn"]).action == .warnContent)
        #expect(policy.resolve(values: ["spoiler"]).action == .warnContent)
        #expect(policy.resolve(values: ["mild"]).action == .badge)
    }

    @Test("a newer negation from the same source cancels a label; an older one or another source's does not")
    func negation() {
        let on = label("nudity", src: "did:plc:labeler", cts: "2026-08-19T12:00:00.000Z")
        let offLater = label("nudity", src: "did:plc:labeler", cts: "2026-08-19T13:00:00.000Z", neg: true)
        let offEarlier = label("nudity", src: "did:plc:labeler", cts: "2026-08-19T11:00:00.000Z", neg: true)
        let offElsewhere = label("nudity", src: "did:plc:other", cts: "2026-08-19T13:00:00.000Z", neg: true)
        #expect(LabelPolicy.grain.resolve([on, offLater]).action == .none)
        #expect(LabelPolicy.grain.resolve([offEarlier, on]).action == .warnMedia)
        #expect(LabelPolicy.grain.resolve([on, offElsewhere]).action == .warnMedia)
    }

    @Test("the values Grain's server never serves include gore but not nudity")
    func serverHidden() {
        #expect(LabelPolicy.serverHiddenValues.contains("gore"))
        #expect(!LabelPolicy.serverHiddenValues.contains("nudity"))
        for value in LabelPolicy.serverHiddenValues { #expect(LabelPolicy.grain.resolve(values: [value]).action == .hide, "\(value)") }
    }
}

extension LabelPolicyTests {
    @Test("a story view's labels decide its treatment; a story without labels is shown as usual")
    func storyViews() {
        var story = StoryView(
            uri: "at://did:plc:author/social.grain.story/3jzfcijpj2z2a", cid: "",
            creator: ProfileView(cid: "", did: "did:plc:author", handle: "a.test"),
            thumb: "/t", fullsize: "/f", aspectRatio: AspectRatio(width: 1, height: 1), createdAt: "2026-08-19T12:00:00.000Z")
        #expect(LabelPolicy.grain.resolve(story) == .none)
        story.labels = [label("sexual")]
        #expect(LabelPolicy.grain.resolve(story).action == .warnMedia)
    }
}
