import ATProto
import Foundation
import Lexicon

/// Turns stored rows into the view shapes of Grain's lexicons, with absolute image URLs.
struct ViewBuilder: Sendable {
    let publicURL: String

    func imageURL(_ preset: BlobStore.Preset, did: String, cid: String) -> String {
        "\(publicURL)/img/\(preset.rawValue)/\(did)/\(cid)"
    }

    func profileView(did: String, handle: String, profile: BackendStore.StoredProfile?) -> ProfileView {
        ProfileView(
            cid: profile?.cid ?? "", did: did, handle: handle.isEmpty ? did : handle,
            displayName: profile?.record.displayName,
            avatar: profile?.record.avatar.map { imageURL(.avatar, did: did, cid: $0.cid) })
    }

    /// A storyView; `full` adds the fields getStories and getStoryArchive set and getStory does not.
    func storyView(_ stored: StoredRecord, creator: ProfileView, now: UTCTime, full: Bool) -> StoryView? {
        guard let mediaCID = stored.value["media"]?["ref"]?["$link"]?.stringValue else { return nil }
        let record = try? stored.value.decode(as: StoryRecord.self)
        var view = StoryView(
            uri: stored.uri.description, cid: stored.cid, creator: creator,
            thumb: imageURL(.thumbnail, did: stored.did, cid: mediaCID),
            fullsize: imageURL(.fullsize, did: stored.did, cid: mediaCID),
            aspectRatio: record?.aspectRatio ?? AspectRatio(width: 4, height: 3),
            createdAt: stored.createdAt)
        view.location = record?.location
        view.address = record?.address
        let labels = stored.selfLabels
        view.labels = labels.isEmpty ? nil : labels
        if full {
            if view.location != nil {
                view.locationDisplay = LocationDisplay.format(location: view.location, address: view.address)
            }
            let created = UTCTime(iso8601: stored.createdAt) ?? now
            view.expired = now.microseconds - created.microseconds > Int64(BackendStore.storyLifetime * 1_000_000)
            view.commentCount = 0
        }
        return view
    }
}
