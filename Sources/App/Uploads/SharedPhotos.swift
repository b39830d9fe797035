import ATProto
import Crypto
import Foundation
import FrontState
import HTTPServer

/// Photos shared from another app (the manifest's share target), kept on disk until the person confirms them on
/// the create form. A share arrives without our CSRF token, so it only ever stages: nothing is posted until the
/// form, with its token, says so. Each file is named for its session, so one visitor's token is useless to another.
/// A staged file's modification time is set from the front's clock, so its age is measured on that clock alone.
struct SharedPhotos: Sendable {
    /// The uploads directory, beside the bodies being streamed.
    let directory: String

    /// How long a staged photo waits for its confirmation.
    static let lifetime: TimeInterval = 3600
    static let prefix = "shared-"

    /// What the form says about a staged photo, and the token it posts back.
    struct Staged: Encodable, Equatable {
        var token: String
        var description: String
    }

    /// Moves `file` to this session's slot, replacing any photo it staged before; removes stale ones of anyone.
    func stage(_ file: BodyFile, format: String, session: BrowserSession, now: UTCTime) throws -> Staged {
        sweep(now: now, session: session)
        let token = Hex.encode(SecureRandom.bytes(16))
        let path = path(token: token, session: session)
        try file.persist(to: path)
        try FileManager.default.setAttributes([.modificationDate: now.date], ofItemAtPath: path)
        return Staged(token: token, description: Self.describe(format: format, bytes: file.count))
    }

    /// The same for a body small enough to have arrived in memory.
    func stage(_ bytes: [UInt8], format: String, session: BrowserSession, now: UTCTime) throws -> Staged {
        sweep(now: now, session: session)
        let token = Hex.encode(SecureRandom.bytes(16))
        let path = path(token: token, session: session)
        let attributes: [FileAttributeKey: Any] = [.posixPermissions: 0o600, .modificationDate: now.date]
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: attributes) else {
            throw SharedPhotoError(description: "cannot write the shared photo to \(path)")
        }
        return Staged(token: token, description: Self.describe(format: format, bytes: bytes.count))
    }

    /// `HEIC, 3.2 MB`.
    static func describe(format: String, bytes: Int) -> String {
        "\(format), \(String(format: "%.1f", Double(bytes) / 1_000_000)) MB"
    }

    /// The staged file a posted token names for this session; nil for a malformed, foreign or expired token.
    func file(token: String, session: BrowserSession, now: UTCTime) -> String? {
        // Only what `stage` makes (lower-case hex) reaches the file system: no separator, no dot.
        guard token.utf8.count == 32, token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        let path = path(token: token, session: session)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let modified = attributes[.modificationDate] as? Date, now.date.timeIntervalSince(modified) < Self.lifetime
        else { return nil }
        return path
    }

    func remove(token: String, session: BrowserSession, now: UTCTime) {
        if let path = file(token: token, session: session, now: now) { try? FileManager.default.removeItem(atPath: path) }
    }

    func path(token: String, session: BrowserSession) -> String {
        directory + "/" + Self.prefix + String(session.idHash.prefix(16)) + "-" + token + ".part"
    }

    /// Removes staged photos past their lifetime, and every earlier one of `session` (one slot per visitor bounds
    /// the disk a visitor can hold with shares).
    func sweep(now: UTCTime, session: BrowserSession? = nil) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let mine = session.map { Self.prefix + String($0.idHash.prefix(16)) + "-" }
        for name in names where name.hasPrefix(Self.prefix) {
            let path = directory + "/" + name
            let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            let stale = modified.map { now.date.timeIntervalSince($0) >= Self.lifetime } ?? true
            if stale || (mine.map { name.hasPrefix($0) } ?? false) { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}

/// A shared photo that could not be kept on disk.
struct SharedPhotoError: Error, CustomStringConvertible {
    var description: String
}
