/// One entry of `dev.hatk.describeLabels`: a label value and how clients should treat it.
///
/// `severity` is `alert`, `inform` or `none`; `blurs` is `media`, `content` or `none`; `defaultSetting` is `hide`,
/// `warn` or `ignore` (the atproto label-value vocabulary, as hatk's `defineLabel` takes it).
public struct LabelDefinition: Codable, Sendable, Equatable {
    /// A human name and description of the label in one language.
    public struct Locale: Codable, Sendable, Equatable {
        public var lang: String
        public var name: String
        public var description: String
        public init(lang: String, name: String, description: String) {
            self.lang = lang
            self.name = name
            self.description = description
        }
    }

    public var identifier: String
    public var severity: String
    public var blurs: String
    public var defaultSetting: String
    public var locales: [Locale]?

    public init(identifier: String, severity: String, blurs: String, defaultSetting: String, locales: [Locale]? = nil) {
        self.identifier = identifier
        self.severity = severity
        self.blurs = blurs
        self.defaultSetting = defaultSetting
        self.locales = locales
    }

    /// The first locale's name, else the identifier (what Grain's viewer shows on the warning bar).
    public var displayName: String { locales?.first?.name ?? identifier }
}

/// Output of `dev.hatk.describeLabels`.
public struct DescribeLabelsOutput: Codable, Sendable, Equatable {
    /// Absent when a server sends `{}`; treat that as no definitions.
    public var definitions: [LabelDefinition]?
    public init(definitions: [LabelDefinition]) { self.definitions = definitions }
}

extension LabelDefinition {
    /// Grain's label definitions (`grainsocial/grain` `server/labels/*.ts` at a312914), in hatk's load order (file
    /// names, alphabetical), which is also the order its report sheet offers them.
    public static let grain: [LabelDefinition] = [
        LabelDefinition(
            identifier: "copyright", severity: "alert", blurs: "content", defaultSetting: "hide",
            locales: [Locale(lang: "en", name: "Copyright Violation", description: "Content that infringes on copyright or intellectual property.")]),
        LabelDefinition(
            identifier: "gore", severity: "alert", blurs: "media", defaultSetting: "hide",
            locales: [Locale(lang: "en", name: "Graphic Media", description: "Graphic or violent imagery.")]),
        LabelDefinition(
            identifier: "harassment", severity: "alert", blurs: "none", defaultSetting: "warn",
            locales: [Locale(lang: "en", name: "Harassment", description: "Targeted harassment, bullying, or hate speech.")]),
        LabelDefinition(
            identifier: "misleading", severity: "inform", blurs: "none", defaultSetting: "warn",
            locales: [Locale(lang: "en", name: "Misleading", description: "Impersonation, misinformation, or deceptive content.")]),
        LabelDefinition(
            identifier: "nudity", severity: "inform", blurs: "media", defaultSetting: "warn",
            locales: [Locale(lang: "en", name: "Nudity", description: "Content containing nudity.")]),
        LabelDefinition(
            identifier: "other", severity: "none", blurs: "none", defaultSetting: "ignore",
            locales: [Locale(lang: "en", name: "Other", description: "Content that does not fit other report categories.")]),
        LabelDefinition(
            identifier: "sexual", severity: "inform", blurs: "media", defaultSetting: "warn",
            locales: [Locale(lang: "en", name: "Sexual Content", description: "Unwanted or mislabeled sexual content.")]),
        LabelDefinition(
            identifier: "spam", severity: "inform", blurs: "content", defaultSetting: "hide",
            locales: [Locale(lang: "en", name: "Spam", description: "Unwanted or repetitive promotional content.")]),
    ]
}
