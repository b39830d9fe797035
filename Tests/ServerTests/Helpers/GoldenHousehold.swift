import ATProto
import Foundation
import Server
import TestSupport

/// The demo household, seeded once and copied into each live server's data directory.
///
/// Seeding makes 32 thumbnails, three password hashes and dozens of fsyncs; about 70 live-server tests start from the
/// same household, so each copies a template instead (a few megabytes of files, milliseconds). The template is a
/// stopped server's data directory and key directory: its databases' write-ahead logs are merged at the stop, so the
/// copy holds everything the seeding committed. A copy's clock starts at the instant the template was seeded, so its
/// stories are exactly as old as a fresh seeding's would be.
///
/// A template serves for `freshFor` only. A server's clock stands still while real time runs on, and the tests'
/// own OAuth clients date their DPoP proofs by real time, which the server accepts up to 60 s ahead of its clock: a
/// template seeded long ago would start a server already too far behind, so a stale one is seeded again.
actor GoldenHousehold {
    static let shared = GoldenHousehold()

    /// How long after its seeding a template is copied (see the type's comment).
    static let freshFor: Double = 15

    /// A seeded, stopped household to copy from.
    struct Template: Sendable {
        let dataDirectory: String
        let keyDirectory: String
        let seededAt: UTCTime
    }

    /// What seeding reads from the configuration; two configurations with the same key seed the same household.
    struct Key: Hashable {
        var photos: String
        var handleDomain: String
        var extraMembers: Int
        var archiveStories: Int
        var fastPasswordHashing: Bool

        init(_ configuration: ServeConfiguration) {
            photos = configuration.demoPhotosDirectory
            handleDomain = configuration.handleDomain
            extraMembers = configuration.demoExtraMembers
            archiveStories = configuration.demoArchiveStories
            fastPasswordHashing = configuration.fastPasswordHashing
        }

        /// A loopback server's configuration that seeds this household and nothing else (no PostgreSQL, no upstream):
        /// seeding reads only what the key holds.
        func seeding(into dataDirectory: String, templates: String, assets: String) -> ServeConfiguration {
            var golden = ServeConfiguration()
            golden.host = "127.0.0.1"
            golden.port = 0
            golden.templatesDirectory = templates
            golden.publicDirectory = assets
            golden.demo = true
            golden.demoPhotosDirectory = photos
            golden.handleDomain = handleDomain
            golden.demoExtraMembers = extraMembers
            golden.demoArchiveStories = archiveStories
            golden.fastPasswordHashing = fastPasswordHashing
            golden.dataDirectory = dataDirectory
            golden.keyDirectory = dataDirectory + "-keys"
            return golden
        }
    }

    private var templates: [Key: Task<Template, any Error>] = [:]

    /// Whether `configuration`'s household can start from a template: the embedded backend's demo, seeded on loopback
    /// (elsewhere the demo's passwords are replaced at seeding, which is what those tests check), into a data
    /// directory that does not exist yet (a restart keeps its own).
    static func applies(to configuration: ServeConfiguration) -> Bool {
        configuration.demo && configuration.appview == nil && configuration.isLoopbackOnly
            && !FileManager.default.fileExists(atPath: configuration.dataDirectory)
    }

    /// Copies the household `configuration` seeds into its (empty) data and key directories; returns when it was seeded.
    func copy(into configuration: ServeConfiguration) async throws -> UTCTime {
        let key = Key(configuration)
        var task = templates[key] ?? Task { try await Self.seed(like: configuration) }
        templates[key] = task
        if let made = try? await task.value, made.seededAt.unixSeconds < UTCTime.now.unixSeconds - Int64(Self.freshFor) {
            // Another copy may have replaced it while this one waited. (Stale templates stay on disk: a copy that
            // waited on one may still be about to read it.)
            if templates[key] == task { templates[key] = Task { try await Self.seed(like: configuration) } }
            task = templates[key]!
        }
        let template = try await task.value
        let files = FileManager.default
        try files.copyItem(atPath: template.dataDirectory, toPath: configuration.dataDirectory)
        try files.copyItem(atPath: template.keyDirectory, toPath: configuration.keyDirectory!)
        return template.seededAt
    }

    /// Seeds the household `configuration`'s key names on a server of its own, and stops it.
    private static func seed(like configuration: ServeConfiguration) async throws -> Template {
        let golden = Key(configuration).seeding(
            into: FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)").path,
            templates: configuration.templatesDirectory, assets: configuration.publicDirectory)
        let seededAt = UTCTime.now
        let app = try Application(configuration: golden, clock: { seededAt })
        _ = try await app.seedDemoIfAsked()
        await app.stop()
        return Template(dataDirectory: golden.dataDirectory, keyDirectory: golden.keyDirectory!, seededAt: seededAt)
    }
}
