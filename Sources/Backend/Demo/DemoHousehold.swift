public import ATProto
import Foundation
import Imaging
import Lexicon

/// Seeds an empty backend with a small household: three members (the first, maya, its owner) with avatars, stories
/// spread over the last day and a few archived ones from this date in earlier years, made from real photographs, so
/// that `grain-stories serve --demo` shows something true to life (the strip, "Today", "On this day").
public enum DemoHousehold {
    /// One photograph to publish, optionally cropped (fractions of the source) to vary aspect ratios.
    struct Shot {
        var file: String
        var crop: (x: Double, y: Double, width: Double, height: Double)? = nil
        var hoursAgo: Double
        var place: Place? = nil
        /// Set for an archived story from this calendar date `yearsAgo` years back (then `hoursAgo` moves it within
        /// that day): what "On this day" shows on first run.
        var yearsAgo = 0
    }

    /// A place a demo story was taken; the H3 cells are resolution 10, computed with Uber's h3 4.x.
    struct Place {
        var name: String
        var cell: String
        var address: Address
    }

    struct Member {
        var name: String
        var displayName: String
        var avatar: Shot
        var shots: [Shot]
    }

    static let lisbon = Place(
        name: "Miradouro de Santa Luzia", cell: "8a3933676d0ffff",
        address: Address(country: "PT", region: "Lisboa", locality: "Lisbon", name: "Miradouro de Santa Luzia"))
    static let sintra = Place(
        name: "Sintra", cell: "8a3933706bb7fff", address: Address(country: "PT", region: "Lisboa", locality: "Sintra"))
    static let liberty = Place(
        name: "Liberty Island", cell: "8a2a1072b59ffff",
        address: Address(country: "US", region: "New York", locality: "New York", name: "Liberty Island"))

    /// The photo files: scikit-image's sample data (public domain or CC0) and `seeding.jpg`, a 16-megapixel landscape
    /// (CC0) cropped to a phone's portrait and landscape shapes; see docs/demo-photos.md.
    static let members: [Member] = [
        Member(
            name: "maya", displayName: "Maya Costa",
            avatar: Shot(file: "astronaut.png", crop: (0.30, 0.02, 0.42, 0.42), hoursAgo: 0),
            shots: [
                Shot(file: "rocket.jpg", hoursAgo: 22.5, place: liberty),
                Shot(file: "seeding.jpg", crop: (0.05, 0.0, 0.32, 1.0), hoursAgo: 9),
                // Portrait, after the one before: the kiosk pairs the two on a landscape screen.
                Shot(file: "hubble_deep_field.jpg", crop: (0.3, 0.0, 0.45, 1.0), hoursAgo: 3.2),
                Shot(file: "coffee.png", crop: (0.25, 0.0, 0.40, 1.0), hoursAgo: 0.6, place: lisbon),
                Shot(file: "chelsea.png", crop: (0.0, 0.0, 0.6, 1.0), hoursAgo: 2, place: sintra, yearsAgo: 1),
                Shot(file: "rocket.jpg", crop: (0.0, 0.1, 1.0, 0.6), hoursAgo: 1, yearsAgo: 1),
            ]),
        Member(
            name: "jonas", displayName: "Jonas Weber",
            avatar: Shot(file: "coffee.png", crop: (0.20, 0.05, 0.60, 0.90), hoursAgo: 0),
            shots: [
                Shot(file: "coffee.png", hoursAgo: 30, place: lisbon),  // older than a day: must not show
                Shot(file: "seeding.jpg", hoursAgo: 14, place: sintra),
                Shot(file: "retina.jpg", crop: (0.0, 0.2, 1.0, 0.56), hoursAgo: 5.5),
                Shot(file: "chelsea.png", crop: (0.1, 0.0, 0.5, 1.0), hoursAgo: 1.5),
            ]),
        Member(
            name: "ines", displayName: "Inês",
            avatar: Shot(file: "chelsea.png", crop: (0.45, 0.0, 0.45, 0.68), hoursAgo: 0),
            shots: [
                Shot(file: "seeding.jpg", crop: (0.60, 0.0, 0.32, 1.0), hoursAgo: 11, place: sintra),
                Shot(file: "hubble_deep_field.jpg", crop: (0.0, 0.3, 1.0, 0.5), hoursAgo: 2.1),
                Shot(file: "astronaut.png", crop: (0.1, 0.0, 0.6, 1.0), hoursAgo: 3, place: liberty, yearsAgo: 2),
            ]),
    ]

    public struct SeedError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The handles `seed` gives its members under `domain`, the owner first.
    public static func handles(domain: String) -> [String] { members.map { "\($0.name).\(domain)" } }

    /// Adds `count` more members with one story each, for benchmarks that want a long strip.
    public static func seedExtraMembers(_ count: Int, into backend: EmbeddedBackend, photos: String, handleDomain: String, now: UTCTime) throws {
        let files = ["rocket.jpg", "coffee.png", "chelsea.png", "astronaut.png", "camera.png", "retina.jpg", "hubble_deep_field.jpg"]
        for i in 0..<count {
            let member = Member(
                name: "member\(i + 4)", displayName: "Member \(i + 4)",
                avatar: Shot(file: files[(i + 1) % files.count], hoursAgo: 0),
                shots: [Shot(file: files[i % files.count], hoursAgo: 3 + Double(i) * 0.5)])
            try add(member, profileCreatedAt: nil, into: backend, photos: photos, handleDomain: handleDomain, now: now)
        }
    }

    /// Seeds the household unless the backend already has accounts. Returns the handles created.
    /// - Parameters:
    ///   - photos: the folder holding the sample photographs (`make demo-photos` fills one).
    ///   - handleDomain: the domain handles end in, e.g. `home.test` gives `maya.home.test`.
    @discardableResult
    public static func seed(
        into backend: EmbeddedBackend, photos: String, handleDomain: String, now: UTCTime
    ) throws
        -> [String]
    {
        guard try backend.store.accounts.accountCount() == 0 else { return [] }
        for member in members {
            for shot in [member.avatar] + member.shots where !FileManager.default.fileExists(atPath: photos + "/" + shot.file) {
                throw SeedError(description: "demo photo \(shot.file) is missing from \(photos); run `make demo-photos`")
            }
        }
        var handles: [String] = []
        for (index, member) in members.enumerated() {
            // The first member owns the household, so invitations and the owner's pages can be tried at once.
            let account = try add(
                member, role: index == 0 ? .owner : .member, profileCreatedAt: now.adding(seconds: -86400 * 30).iso8601,
                into: backend, photos: photos, handleDomain: handleDomain, now: now)
            handles.append(account.handle)
        }
        return handles
    }

    /// Creates one member with an avatar, a profile and their stories.
    @discardableResult
    private static func add(
        _ member: Member, role: AccountRole = .member, profileCreatedAt: String?, into backend: EmbeddedBackend, photos: String, handleDomain: String,
        now: UTCTime
    ) throws -> Account {
        let account = try backend.store.accounts.createAccount(handle: "\(member.name).\(handleDomain)", role: role, now: now)
        let avatar = try publish(member.avatar, from: photos, maxEdge: 512, for: account.did, in: backend, now: now)
        let profile = ProfileRecord(displayName: member.displayName, avatar: avatar.ref, createdAt: profileCreatedAt)
        try backend.store.records.putRecord(
            did: account.did, collection: ProfileRecord.collection, rkey: "self", value: try JSONValue(encoding: profile),
            now: now)
        for shot in member.shots {
            let created = createdAt(shot, now: now)
            let photo = try publish(shot, from: photos, maxEdge: 2000, for: account.did, in: backend, now: now)
            var record = StoryRecord(
                media: photo.ref, aspectRatio: AspectRatio(width: photo.width, height: photo.height),
                createdAt: created.iso8601)
            if let place = shot.place {
                record.location = HThreeLocation(value: place.cell, name: place.name)
                record.address = place.address
            }
            try backend.store.records.putRecord(
                did: account.did, collection: StoryRecord.collection, value: try JSONValue(encoding: record), now: created)
        }
        return account
    }

    /// When a shot was taken: `hoursAgo` before now, or for a memory on this date `yearsAgo` years back, kept on that
    /// date however early in the day it is now.
    static func createdAt(_ shot: Shot, now: UTCTime) -> UTCTime {
        let moment = yearsBefore(now, shot.yearsAgo).adding(seconds: -shot.hoursAgo * 3600)
        guard shot.yearsAgo > 0, let dayStart = UTCTime(iso8601: yearsBefore(now, shot.yearsAgo).iso8601.prefix(10) + "T00:00:00.000Z")
        else { return moment }
        return dayStart < moment ? moment : dayStart
    }

    /// The same UTC date and time `years` earlier (29 February becomes the 28th), never by counting days, which leap
    /// years would move off the date.
    static func yearsBefore(_ now: UTCTime, _ years: Int) -> UTCTime {
        guard years > 0, let year = Int(now.iso8601.prefix(4)) else { return now }
        var rest = String(now.iso8601.dropFirst(4))
        if rest.hasPrefix("-02-29") { rest = "-02-28" + rest.dropFirst(6) }
        return UTCTime(iso8601: String(format: "%04d", year - years) + rest) ?? now
    }

    /// Decodes, crops, fits and re-encodes a photo as JPEG (or takes the one made before), then stores it as a blob
    /// of `did`.
    private static func publish(
        _ shot: Shot, from photos: String, maxEdge: Int, for did: DID, in backend: EmbeddedBackend, now: UTCTime
    )
        throws -> (ref: BlobRef, width: Int, height: Int)
    {
        let jpeg = try prepared(shot, from: photos, maxEdge: maxEdge)
        let info = try Imaging.readInfo(jpeg)
        let blob = try backend.blobs.store(jpeg, mimeType: "image/jpeg")
        try backend.store.blobs.recordBlob(did: did, cid: blob.cid, mimeType: blob.mimeType, size: blob.size, now: now)
        return (BlobRef(cid: blob.cid, mimeType: blob.mimeType, size: blob.size), info.width, info.height)
    }

    /// Changes whenever ``prepared(_:from:maxEdge:)`` would make other bytes, so none made before is taken.
    static let preparedRecipe = 1

    /// The shot as the JPEG the demo publishes. Each is kept beside the photos once made (`.prepared/`), since every
    /// seeding makes the same bytes and a phone-sized photo takes seconds in a debug build; a folder that cannot be
    /// written only means making it again next time.
    static func prepared(_ shot: Shot, from photos: String, maxEdge: Int) throws -> [UInt8] {
        let crop = shot.crop ?? (0, 0, 1, 1)
        // Named by everything the bytes depend on: the source (by its size), the crop, the bound and this recipe.
        let size = (try? FileManager.default.attributesOfItem(atPath: photos + "/" + shot.file)[.size] as? Int) ?? 0
        let name = "v\(preparedRecipe)-\(shot.file)-\(size)-\(crop.x)-\(crop.y)-\(crop.width)-\(crop.height)-\(maxEdge).jpg"
        let folder = photos + "/.prepared"
        if let kept = FileManager.default.contents(atPath: folder + "/" + name) { return [UInt8](kept) }
        let source = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photos + "/" + shot.file)))
        // A phone-sized JPEG is decoded at the smallest DCT scale its crop still fills `maxEdge` from.
        let info = try Imaging.readInfo(source)
        let fitted = Imaging.fittedSize(
            width: Int(Double(info.width) * crop.width), height: Int(Double(info.height) * crop.height), maxWidth: maxEdge, maxHeight: maxEdge)
        var image = try Imaging.decode(
            source, atLeast: (Int((Double(fitted.width) / crop.width).rounded(.up)), Int((Double(fitted.height) / crop.height).rounded(.up))))
        if shot.crop != nil {
            image = image.cropped(
                x: Int(Double(image.width) * crop.x), y: Int(Double(image.height) * crop.y),
                width: max(1, Int(Double(image.width) * crop.width)),
                height: max(1, Int(Double(image.height) * crop.height)))
        }
        image = image.resizedToFit(maxWidth: maxEdge, maxHeight: maxEdge)
        let jpeg = try Imaging.encodeJPEG(image, quality: 88)
        // Written whole under a name of its own, then renamed: seedings running side by side never read half a file.
        let temporary = folder + "/.\(name).\(UUID().uuidString)"
        if (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
            FileManager.default.createFile(atPath: temporary, contents: Data(jpeg))
        {
            if rename(temporary, folder + "/" + name) != 0 { try? FileManager.default.removeItem(atPath: temporary) }
        }
        return jpeg
    }
}
