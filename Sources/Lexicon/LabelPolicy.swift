/// What a client does with a labelled story, from least to most restrictive.
public enum LabelAction: String, Sendable, Equatable, Comparable, CaseIterable {
    /// Show as usual.
    case none
    /// Show, with the label's name as a badge.
    case badge
    /// Blur the image behind a warning with a "Show" control.
    case warnMedia = "warn-media"
    /// Cover the whole story behind a warning with a "Show" control.
    case warnContent = "warn-content"
    /// Do not show at all.
    case hide

    var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    public static func < (a: LabelAction, b: LabelAction) -> Bool { a.rank < b.rank }
}

/// The strongest action a story's labels call for, and the label that called for it.
public struct LabelDecision: Sendable, Equatable {
    public var action: LabelAction
    /// The label value (`nudity`), empty when the action is `none`.
    public var label: String
    /// What to call it on a warning (`Nudity`), from its definition or the atproto fallback.
    public var name: String

    public init(action: LabelAction, label: String, name: String) {
        self.action = action
        self.label = label
        self.name = name
    }

    /// Whether the story shows behind a warning (its media, or all of it) rather than as it is.
    public var warns: Bool { action == .warnMedia || action == .warnContent }

    public static let none = LabelDecision(action: .none, label: "", name: "")
}

/// Resolves a story's labels (its self-labels and any labeler's, as a view carries them) the way Grain's web app
/// does (`app/lib/labels.ts`): each label maps through the server's definitions (`describeLabels`), or else through
/// the well-known atproto values, to an action; the most restrictive wins.
///
/// - `defaultSetting: hide` hides, unless the label blurs nothing, which warns about the content instead;
/// - `defaultSetting: warn` blurs the media or the content as `blurs` says, or shows a badge when it blurs nothing;
/// - anything else (`ignore`) is a badge. Unknown values without a fallback are ignored.
///
/// Two choices of ours where Grain's client is silent: a negation (`neg`) cancels the same value from the same source
/// when it is the newer of the two (Grain drops negations without cancelling anything), and `!takedown` hides
/// (Grain's server never serves such stories, so its client has no fallback for it).
public struct LabelPolicy: Sendable, Equatable {
    public var definitions: [String: LabelDefinition]

    public init(definitions: [LabelDefinition]) {
        var byIdentifier: [String: LabelDefinition] = [:]
        for definition in definitions where byIdentifier[definition.identifier] == nil {
            byIdentifier[definition.identifier] = definition
        }
        self.definitions = byIdentifier
    }

    /// Grain's own definitions, for the embedded backend and until an upstream's `describeLabels` is known.
    public static let grain = LabelPolicy(definitions: LabelDefinition.grain)

    /// Values Grain's server treats as hide-severity (`server/labels/_hidden.ts`): stories carrying one are not served.
    public static let serverHiddenValues: Set<String> = [
        "!hide", "!takedown", "spam", "copyright", "gore", "nsfl", "dmca-violation", "doxxing",
    ]

    /// Grain's fallbacks for well-known atproto values a server does not define, plus `!takedown`.
    static let fallbacks: [String: LabelDefinition] = {
        let list = [
            ("porn", "media", "warn", "Adult Content"), ("nsfl", "media", "hide", "NSFL"),
            ("dmca-violation", "content", "hide", "DMCA Violation"), ("doxxing", "content", "hide", "Doxxing"),
            ("!hide", "content", "hide", "Hidden"), ("!warn", "content", "warn", "Warning"),
            ("!takedown", "content", "hide", "Taken down"),
        ]
        var table: [String: LabelDefinition] = [:]
        for (value, blurs, setting, name) in list {
            table[value] = LabelDefinition(
                identifier: value, severity: "alert", blurs: blurs, defaultSetting: setting,
                locales: [LabelDefinition.Locale(lang: "en", name: name, description: "")])
        }
        return table
    }()

    /// The decision for a view's labels.
    public func resolve(_ labels: [Label]) -> LabelDecision {
        // The newest entry per source and value decides whether that label is in force.
        var latest: [String: Label] = [:]
        for label in labels {
            let key = label.src + "\u{0}" + label.val
            if let previous = latest[key], previous.cts > label.cts { continue }
            latest[key] = label
        }
        let active = latest.values.filter { $0.neg != true }.map(\.val)
        return resolve(values: active.sorted())
    }

    /// The decision for a story: its view carries its self-labels and any labeler's.
    public func resolve(_ story: StoryView) -> LabelDecision {
        resolve(story.labels ?? [])
    }

    /// The decision for bare label values (a record's self-labels, say).
    public func resolve(values: [String]) -> LabelDecision {
        var worst = LabelDecision.none
        for value in values {
            guard let definition = definitions[value] ?? Self.fallbacks[value] else { continue }
            let action = Self.action(blurs: definition.blurs, defaultSetting: definition.defaultSetting)
            if action > worst.action { worst = LabelDecision(action: action, label: value, name: definition.displayName) }
        }
        return worst
    }

    static func action(blurs: String, defaultSetting: String) -> LabelAction {
        switch defaultSetting {
        case "hide": return blurs == "none" ? .warnContent : .hide
        case "warn":
            switch blurs {
            case "media": return .warnMedia
            case "content": return .warnContent
            default: return .badge
            }
        default: return .badge
        }
    }
}
