public import ATProto
import Foundation
import Imaging
import Lexicon

extension DemoHousehold {
    /// The full-size photo of an archive story: about this many bytes, like a phone photo the create form keeps.
    static let archivePhotoBytes = 500_000

    /// Adds `count` stories to the members already seeded, for the backup benchmark (a household's archive of
    /// years): round-robin over the members, spread evenly over the past `count / 5` days (about five a day, the
    /// newest an hour old), each with a full-size JPEG blob of its own of about 500 KB, stored like any upload
    /// through the blob store (which makes its thumbnail and avatar variants) and owned and referenced like one.
    /// The photos are the demo photographs enlarged to 2000 px with film grain added, encoded once each; every
    /// story's copy differs from the others by a JPEG comment naming the story, so each is a blob file of its own.
    public static func seedArchive(_ count: Int, into backend: EmbeddedBackend, photos: String, now: UTCTime) throws {
        guard count > 0 else { return }
        let members = try backend.store.members.all().compactMap { DID.parse($0.did) }
        guard !members.isEmpty else { throw SeedError(description: "the archive needs members to post it; seed the demo household first") }
        let files = ["rocket.jpg", "coffee.png", "chelsea.png", "astronaut.png", "camera.png", "retina.jpg", "hubble_deep_field.jpg"]
        var bases: [(jpeg: [UInt8], width: Int, height: Int)] = []
        for (index, file) in files.enumerated() {
            let source = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photos + "/" + file)))
            bases.append(try archivePhoto(from: source, seed: UInt64(index + 1)))
        }
        let spacing = 86400.0 / 5
        for i in 0..<count {
            let base = bases[i % bases.count]
            let did = members[i % members.count]
            let created = now.adding(seconds: -3600 - Double(i) * spacing)
            let jpeg = withComment("grain-stories demo archive story \(i + 1)", in: base.jpeg)
            let blob = try backend.blobs.store(jpeg, mimeType: "image/jpeg")
            try backend.store.blobs.recordBlob(did: did, cid: blob.cid, mimeType: blob.mimeType, size: blob.size, now: created)
            let record = StoryRecord(
                media: BlobRef(cid: blob.cid, mimeType: blob.mimeType, size: blob.size),
                aspectRatio: AspectRatio(width: base.width, height: base.height), createdAt: created.iso8601)
            try backend.store.records.putRecord(
                did: did, collection: StoryRecord.collection, value: try JSONValue(encoding: record), now: created)
        }
    }

    /// A demo photograph enlarged so its long edge is 2000 px, with grain (so it compresses like a photo, not like
    /// a smooth enlargement), encoded at the highest quality that keeps it within ``archivePhotoBytes``.
    static func archivePhoto(from source: [UInt8], seed: UInt64) throws -> (jpeg: [UInt8], width: Int, height: Int) {
        let image = try Imaging.decode(source)
        let scale = 2000.0 / Double(max(image.width, image.height))
        var large = image.resized(width: max(1, Int(Double(image.width) * scale)), height: max(1, Int(Double(image.height) * scale)))
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        for i in large.pixels.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let grain = Int(state % 25) - 12
            large.pixels[i] = UInt8(clamping: Int(large.pixels[i]) + grain)
        }
        var quality = 95
        var jpeg = try Imaging.encodeJPEG(large, quality: quality)
        while jpeg.count > archivePhotoBytes, quality > 40 {
            quality -= 5
            jpeg = try Imaging.encodeJPEG(large, quality: quality)
        }
        return (jpeg, large.width, large.height)
    }

    /// `jpeg` with a comment segment (COM) after its JFIF header: other bytes, the same picture.
    static func withComment(_ text: String, in jpeg: [UInt8]) -> [UInt8] {
        let comment = Array(text.utf8)
        var at = 2
        if jpeg.count > 6, jpeg[2] == 0xFF, jpeg[3] == 0xE0 { at = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5])) }
        let length = comment.count + 2
        let segment: [UInt8] = [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + comment
        return Array(jpeg[..<at]) + segment + Array(jpeg[at...])
    }
}
