import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Symbolic links in a backup. grain-stories never makes one, and one found there could lead a check or a restore to
/// a file outside the folder (`/etc/shadow`, another household's data), so each is refused rather than followed.
extension Files {
    /// The first part of `relative` under `folder` (a folder on the way, or the file) that is a symbolic link, with
    /// where it points; nil when there is none. A part that does not exist ends the walk: the caller reports a
    /// missing file in its own words.
    static func symbolicLink(in folder: String, along relative: String) -> (path: String, target: String)? {
        var path = ""
        for part in relative.split(separator: "/") {
            path += (path.isEmpty ? "" : "/") + part
            guard let kind = kind(folder + "/" + path) else { return nil }
            if kind == S_IFLNK { return (path, target(ofLink: folder + "/" + path)) }
        }
        return nil
    }

    /// The refusal of a backup holding the link at `path`.
    static func linkRefusal(_ path: String, target: String) -> BackupError {
        BackupError(
            .damaged,
            "\(path) is a symbolic link (to \(target)); grain-stories never puts one in a backup, so the backup was changed "
                + "after it was made, and nothing is read through the link. Use another backup, or replace the link with the file")
    }

    /// Throws ``linkRefusal(_:target:)`` when any part of `relative` under `folder` is a symbolic link.
    static func refuseSymbolicLinks(in folder: String, along relative: String) throws(BackupError) {
        if let link = symbolicLink(in: folder, along: relative) { throw linkRefusal(link.path, target: link.target) }
    }

    /// Opens a file for reading, refusing a symbolic link in its last part (`O_NOFOLLOW`; the folders on the way are
    /// checked by ``symbolicLink(in:along:)``).
    static func openForReading(_ path: String) throws(BackupError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            let code = errno
            throw code == ELOOP ? linkRefusal(path, target: target(ofLink: path)) : failure("read", path, code)
        }
        return fd
    }

    /// The file type bits (`S_IFREG`, `S_IFDIR`, `S_IFLNK`, …) of `path` itself, a link not followed; nil when it
    /// cannot be looked at.
    static func kind(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    static func target(ofLink path: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
    }
}
