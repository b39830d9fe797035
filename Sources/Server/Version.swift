/// This build of grain-stories, as backups' manifests record it.
public enum Version {
    public static let current = "0.15.0"
}
