/// What an `/img/<preset>/<did>/<cid>` path names, its segments split as the router splits them; nil for any other
/// path. The DID and CID are not checked here: only strings that passed those checks are ever found in the store's
/// memory or used as a file's name.
struct ImagePath {
    let preset: BlobStore.Preset
    let did: String
    let cid: String

    init?(_ path: String) {
        guard path.hasPrefix("/") else { return nil }
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "img", let preset = BlobStore.Preset(rawValue: String(parts[1])) else { return nil }
        self.preset = preset
        did = String(parts[2])
        cid = String(parts[3])
    }
}
